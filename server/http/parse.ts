import { AppError } from "../errors";

const MAX_BODY_BYTES = 64 * 1024;

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
