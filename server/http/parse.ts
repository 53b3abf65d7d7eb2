import type { z } from "zod";
import { AppError, invalidParameter } from "./errors";

const MAX_BODY_BYTES = 64 * 1024;

function describeIssue(issue: z.core.$ZodIssue, fallbackName: string): { parameter: string; detail: string } {
  const parameter = issue.path.length ? issue.path.map(String).join(".") : fallbackName;
  let bound = issue.message;
  if (issue.code === "too_big") bound = `must be at most ${String(issue.maximum)}${issue.inclusive === false ? " (exclusive)" : ""}`;
  if (issue.code === "too_small") bound = issue.origin === "string" && Number(issue.minimum) === 1 ? "must not be empty" : `must be ${issue.inclusive === false ? "greater than" : "at least"} ${String(issue.minimum)}`;
  if (issue.code === "invalid_value") bound = `must be one of ${issue.values.map((v) => String(v)).join(", ")}`;
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
export function queryObject(params: URLSearchParams): Record<string, string> {
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

/** Read a JSON body (at most 64 KiB). Malformed JSON is `invalid_request` (SERVICE.md part 7). */
export async function readJson(req: Request, { optional = false } = {}): Promise<unknown> {
  const length = Number(req.headers.get("content-length") ?? 0);
  if (length > MAX_BODY_BYTES) throw new AppError("payload_too_large", { detail: `body larger than ${MAX_BODY_BYTES} bytes` });
  const text = await req.text();
  if (text.length > MAX_BODY_BYTES) throw new AppError("payload_too_large", { detail: `body larger than ${MAX_BODY_BYTES} bytes` });
  if (text.trim() === "") {
    if (optional) return {};
    throw new AppError("invalid_request", { detail: "a JSON body is required" });
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new AppError("invalid_request", { detail: "the body is not valid JSON" });
  }
}

/** Read an application/x-www-form-urlencoded body (OAuth token endpoint). */
export async function readForm(req: Request): Promise<URLSearchParams> {
  const type = req.headers.get("content-type") ?? "";
  if (!type.toLowerCase().startsWith("application/x-www-form-urlencoded"))
    throw new AppError("invalid_request", { detail: "the body must be application/x-www-form-urlencoded" });
  const text = await req.text();
  if (text.length > MAX_BODY_BYTES) throw new AppError("payload_too_large");
  return new URLSearchParams(text);
}
