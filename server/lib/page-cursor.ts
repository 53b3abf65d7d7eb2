// The console's keyset cursors on the wire: "<ms since epoch>.<row id>", the last row of the previous page (its time
// and id, newest first). One format for every paged list, and one error for a cursor that is not one.
import { AppError } from "../errors";

const CURSOR = /^(\d{1,15})\.([A-Za-z0-9_]{1,64})$/;

export type PageCursor = { at: Date; id: string };

export function encodePageCursor(at: Date, id: string): string {
  return `${at.getTime()}.${id}`;
}

/** The cursor's time and id; `invalid_request` (parameter `cursor`) when it is not a nextCursor this app gave. */
export function decodePageCursor(s: string): PageCursor {
  const m = CURSOR.exec(s);
  if (!m)
    throw new AppError("invalid_request", {
      reason: "invalid_parameter",
      detail: "cursor must be the nextCursor of a previous page",
      extra: { parameter: "cursor" },
    });
  return { at: new Date(Number(m[1])), id: m[2]! };
}
