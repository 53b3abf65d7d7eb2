// The archive range operation's contract (SERVICE.md parts 2 and 4); the archive's shared shapes are server/contracts/archive.ts.
// Zod only (and the shared pieces in server/contracts): the upstream validates with it, OpenAPI and the MCP tool are
// generated from it, tests check responses against it. Any code may import it, a client bundle included.
import { z } from "zod";
import { archiveEntity, archiveFeedPath, archiveRangeResponse } from "../../../contracts/archive";
import { isoDate, queryInt } from "../../../contracts/common";
import type { OperationContract } from "../../../contracts/operations";

export { archiveFeedPath, archiveRangeResponse };

export const ARCHIVE_RANGE_DEFAULT_LIMIT = 90;

export const archiveRangeQuery = z.object({
  from: isoDate.optional(),
  to: isoDate.optional(),
  entity: archiveEntity.optional(),
  limit: queryInt(1, 366).default(ARCHIVE_RANGE_DEFAULT_LIMIT),
});

export const contract = {
  key: "archive_range",
  method: "GET",
  path: "/api/v1/archive/{feed}/range",
  upstreamPath: "/archive/{feed}/range",
  summary: "Per-day summaries of an archived feed over a date range",
  description: "Oldest first, without payloads (fetch a full day with the snapshot operation and `date`). `limit` at most 366.",
  pathParams: archiveFeedPath,
  query: archiveRangeQuery,
  response: archiveRangeResponse,
  keywords: ["snapshot", "history", "timeline"],
} satisfies OperationContract;
