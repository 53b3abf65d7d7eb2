// Input validation shared by every layer: a zod schema's first problem becomes a 400 naming the parameter and
// the bound it broke (SERVICE.md part 7 `invalid_request`).
import type { z } from "zod";
import { invalidParameter } from "./errors";

function describeIssue(issue: z.core.$ZodIssue, fallbackName: string): { parameter: string; detail: string } {
  const parameter = issue.path.length ? issue.path.map(String).join(".") : fallbackName;
  let bound = issue.message;
  if (issue.code === "too_big") bound = `must be at most ${String(issue.maximum)}${issue.inclusive === false ? " (exclusive)" : ""}`;
  if (issue.code === "too_small")
    bound =
      issue.origin === "string" && Number(issue.minimum) === 1
        ? "must not be empty"
        : `must be ${issue.inclusive === false ? "greater than" : "at least"} ${String(issue.minimum)}`;
  if (issue.code === "invalid_value") bound = `must be one of ${issue.values.map((v) => String(v)).join(", ")}`;
  // A discriminated union's unknown tag (a registration's `type`): the tags it takes, not zod's own sentence.
  if (issue.code === "invalid_union" && "options" in issue && issue.options?.length) bound = `must be one of ${issue.options.map((v) => String(v)).join(", ")}`;
  if (issue.code === "invalid_type" && issue.input === undefined) bound = "is required";
  return { parameter, detail: `${parameter} ${bound}` };
}

/** Validate with a zod schema; the first problem becomes a 400 naming the parameter and the bound. */
export function parseWith<S extends z.ZodType>(schema: S, input: unknown, fallbackName = "request"): z.output<S> {
  const res = schema.safeParse(input);
  if (res.success) return res.data;
  const { parameter, detail } = describeIssue(res.error.issues[0]!, fallbackName);
  throw invalidParameter(parameter, detail);
}

/** Query string -> object for a zod schema. A parameter given twice is refused rather than guessed at. */
function queryObject(params: URLSearchParams): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of params) {
    if (k in out) throw invalidParameter(k, `${k} is given more than once`);
    out[k] = v;
  }
  return out;
}

export function parseQuery<S extends z.ZodType>(schema: S, params: URLSearchParams): z.output<S> {
  return parseWith(schema, queryObject(params));
}
