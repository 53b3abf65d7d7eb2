import { TEST_ENV } from "../../scripts/test/test-env";
import { signUpstreamRequest } from "../upstream-auth/signature";

export const UPSTREAM_ORIGIN = "http://127.0.0.1:3999";

/** A request to the market upstream signed as the gateway signs it (path includes the prefix). */
export function signedRequest(pathAndQuery: string, opts: { secret?: string; now?: number; headers?: Record<string, string>; method?: string } = {}): Request {
  const url = new URL(`${UPSTREAM_ORIGIN}/upstream/market/v1${pathAndQuery}`);
  const method = opts.method ?? "GET";
  const sig = signUpstreamRequest(opts.secret ?? TEST_ENV.MARKET_UPSTREAM_SECRET, { method, path: url.pathname, query: url.searchParams }, opts.now);
  return new Request(url, { method, headers: { host: "127.0.0.1:3999", ...sig, ...opts.headers } });
}
