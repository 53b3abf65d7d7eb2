// HTTP for the live adapters: a timeout per attempt, retries with exponential backoff on 5xx and 429
// (honouring Retry-After), and every failure mapped to one clear AppError. The API key never appears in
// an error or a log line: callers pass a `redact` list.
import { AppError } from "../../errors";

export type FetchJsonOptions = {
  method?: "GET" | "POST";
  body?: unknown;
  headers?: Record<string, string>;
  timeoutMs?: number;
  retries?: number;
  /** First backoff; doubles per attempt. */
  backoffMs?: number;
  /** Provider name for error messages ("massive", "treasury", "hyperliquid"). */
  provider: string;
  /** Substrings (secrets) removed from any URL placed in an error. */
  redact?: string[];
};

export type HttpFailure = { status: number; body: unknown };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function safeUrl(url: string, redact: string[] = []): string {
  let out = url;
  for (const s of redact) if (s) out = out.split(s).join("***");
  return out.replace(/([?&](apiKey|api_key|token)=)[^&]*/gi, "$1***");
}

/**
 * GET or POST JSON. Returns the parsed body on 2xx. A 4xx other than 429 is not retried and comes back
 * as `{ok:false}` so the adapter can map vendor semantics (403 plan, 404 unknown) itself.
 */
export function fetchJson<T = unknown>(url: string, opts: FetchJsonOptions): Promise<{ ok: true; body: T } | { ok: false; failure: HttpFailure }> {
  return fetchBody(url, opts, (body) => {
    if (typeof body === "string")
      throw new AppError("upstream_unavailable", { reason: "invalid_response", detail: `${opts.provider} answered with a body that is not JSON` });
    return body as T;
  });
}

/** The same for a vendor that answers text (a CSV download): the body on 2xx as it came, failures as fetchJson's. */
export function fetchText(url: string, opts: FetchJsonOptions): Promise<{ ok: true; body: string } | { ok: false; failure: HttpFailure }> {
  return fetchBody(url, { ...opts, headers: { accept: "text/csv, text/plain, */*", ...opts.headers } }, (_parsed, text) => text);
}

async function fetchBody<T>(
  url: string,
  opts: FetchJsonOptions,
  read: (parsed: unknown, text: string) => T,
): Promise<{ ok: true; body: T } | { ok: false; failure: HttpFailure }> {
  const retries = opts.retries ?? 2;
  const timeoutMs = opts.timeoutMs ?? 10_000;
  let backoff = opts.backoffMs ?? 250;
  let lastError: AppError | undefined;
  for (let attempt = 0; attempt <= retries; attempt++) {
    const ctl = new AbortController();
    const timer = setTimeout(() => ctl.abort(), timeoutMs);
    try {
      const res = await fetch(url, {
        method: opts.method ?? "GET",
        headers: { accept: "application/json", ...(opts.body !== undefined ? { "content-type": "application/json" } : {}), ...opts.headers },
        body: opts.body !== undefined ? JSON.stringify(opts.body) : undefined,
        signal: ctl.signal,
      });
      const text = await res.text();
      let body: unknown = text;
      try {
        body = text ? JSON.parse(text) : null;
      } catch {
        /* non-JSON error pages stay text */
      }
      if (res.ok) return { ok: true, body: read(body, text) };
      if (res.status === 429 || res.status >= 500) {
        lastError = new AppError("upstream_unavailable", {
          reason: res.status === 429 ? "provider_rate_limited" : "provider_error",
          detail: `${opts.provider} answered ${res.status} for ${safeUrl(url, opts.redact)}`,
        });
        if (attempt < retries) {
          const retryAfter = Number(res.headers.get("retry-after"));
          await sleep(Number.isFinite(retryAfter) && retryAfter > 0 ? Math.min(retryAfter * 1000, 5000) : backoff);
          backoff *= 2;
          continue;
        }
        throw lastError;
      }
      return { ok: false, failure: { status: res.status, body } };
    } catch (err) {
      if (err instanceof AppError) throw err;
      const aborted = (err as Error)?.name === "AbortError";
      lastError = aborted
        ? new AppError("upstream_timeout", { detail: `${opts.provider} did not answer within ${timeoutMs} ms` })
        : new AppError("upstream_unavailable", { reason: "provider_unreachable", detail: `${opts.provider} could not be reached` });
      if (attempt < retries) {
        await sleep(backoff);
        backoff *= 2;
        continue;
      }
      throw lastError;
    } finally {
      clearTimeout(timer);
    }
  }
  throw lastError ?? new AppError("upstream_unavailable", { detail: `${opts.provider} failed` });
}
