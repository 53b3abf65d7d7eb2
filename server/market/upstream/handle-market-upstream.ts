// The market data upstream: an HTTP API of its own under /upstream/market/v1, which the gateway proxies paid calls to,
// one route per registered data operation (server/market/operations). It answers only requests the gateway signed with
// the seller's signing secret (MARKET_UPSTREAM_SECRET here), so the data cannot be fetched around the payment.
import { env } from "../../env";
import { AppError } from "../../errors";
import { json } from "../../http/respond";
import { verifyUpstreamRequest } from "../../upstream-auth/signature";
import { parseQuery, parseWith } from "../../validation";
import { systemClock } from "../lib/envelope";
import { archiveFeeds, matchUpstreamPath } from "../operations";
import { getMarketProviders } from "../providers/get-market-providers";

export const MARKET_UPSTREAM_PREFIX = "/upstream/market/v1";

/**
 * Origin for absolute links (the backtest artifact.url): the public host the agent called, which the
 * gateway passes as X-Forwarded-Host/Proto on the signed request; else PUBLIC_URL; else this request's host.
 */
export function upstreamOrigin(req: Request, url: URL): string {
  const fwdHost = req.headers.get("x-forwarded-host")?.split(",")[0]?.trim();
  const fwdProto = req.headers.get("x-forwarded-proto")?.split(",")[0]?.trim();
  if (fwdHost && /^[A-Za-z0-9.\-:\[\]]+$/.test(fwdHost)) return `${fwdProto === "http" || fwdProto === "https" ? fwdProto : "https"}://${fwdHost}`;
  const pub = env().PUBLIC_URL;
  if (pub) return pub.replace(/\/$/, "");
  return url.origin;
}

function checkSignature(req: Request, url: URL, subPath: string): void {
  const secret = env().MARKET_UPSTREAM_SECRET;
  // The gateway signs the path it requests (prefix included); a signature over the path below the prefix
  // is accepted too. Either way the HMAC binds method, path, query and time.
  let check = verifyUpstreamRequest(secret, { method: req.method, path: url.pathname, query: url.searchParams }, req.headers);
  if (!check.ok && check.reason === "bad_signature") {
    const alt = verifyUpstreamRequest(secret, { method: req.method, path: subPath, query: url.searchParams }, req.headers);
    if (alt.ok) check = alt;
  }
  if (!check.ok) {
    throw new AppError("invalid_upstream_signature", {
      reason: check.reason,
      detail:
        check.reason === "missing_signature"
          ? "this upstream only answers requests signed by the storefront gateway; call the data through /api/v1/..."
          : check.reason === "stale_signature"
            ? "the gateway signature timestamp is outside the allowed window"
            : "the gateway signature does not match this request",
    });
  }
}

/** Handle one request to the upstream (GET only; the route wrapper answers other methods with 405). */
export async function handleMarketUpstream(req: Request): Promise<Response> {
  const url = new URL(req.url);
  const subPath = url.pathname.startsWith(MARKET_UPSTREAM_PREFIX) ? url.pathname.slice(MARKET_UPSTREAM_PREFIX.length) || "/" : url.pathname;
  checkSignature(req, url, subPath);
  // The routes are the registry's operations (their upstream path templates): nothing here names one.
  const m = matchUpstreamPath(subPath);
  if (!m) throw new AppError("not_found", { detail: `no market data operation at ${subPath}` });
  const { contract } = m.op;
  const path = contract.pathParams ? parseWith(contract.pathParams, m.pathParams) : {};
  const query = contract.query ? parseQuery(contract.query, url.searchParams) : {};
  const body = await m.op.run({ path, query } as Parameters<typeof m.op.run>[0], {
    providers: getMarketProviders(),
    now: systemClock,
    origin: upstreamOrigin(req, url),
    feeds: archiveFeeds(),
  });
  return json(body, { headers: { "cache-control": "no-store" } });
}
