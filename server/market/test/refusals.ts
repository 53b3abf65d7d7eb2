// Tests only: awaiting an operation's call that is expected to be refused. `failureOf` gives back what it threw;
// `refusalOf` the AppError's fields the test compares (all four unless it names some), and rethrows anything else.
import { isAppError, type AppError } from "../../errors";

export async function failureOf(p: Promise<unknown>): Promise<AppError> {
  try {
    await p;
  } catch (e) {
    return e as AppError;
  }
  throw new Error("expected a failure");
}

const FIELDS = ["status", "code", "reason", "detail"] as const;
type Field = (typeof FIELDS)[number];

export async function refusalOf(p: Promise<unknown>, fields: readonly Field[] = FIELDS): Promise<Partial<Record<Field, unknown>>> {
  const err = await failureOf(p);
  if (!isAppError(err)) throw err;
  const all = { status: err.status, code: err.code, reason: err.reason, detail: err.detail };
  return Object.fromEntries(fields.map((f) => [f, all[f]]));
}
