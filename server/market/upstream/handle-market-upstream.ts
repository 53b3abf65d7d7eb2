// The market data upstream: an HTTP API of its own under /upstream/market/v1, which the gateway proxies
// paid calls to. It answers only requests the gateway signed with the seller's signing secret
// (MARKET_UPSTREAM_SECRET here), so the data cannot be fetched around the payment.
import {
  aggregatesPath,
  aggregatesQuery,
  archiveCatalogQuery,
  archiveDayQuery,
  archiveFeedPath,
  archiveRangeQuery,
  avgInterestRatesQuery,
  backtestPath,
  backtestQuery,
  basisQuery,
} from "../../contracts/market";
import { env } from "../../env";
import { AppError } from "../../errors";
import { parseQuery, parseWith } from "../../validation";
import { json } from "../../http/respond";
import { verifyUpstreamRequest } from "../../upstream-auth/signature";
import { getAggregates } from "../aggregates/get-aggregates";
import { getArchiveCatalog, getArchiveDay, getArchiveRange } from "../archive/read-archive";
import { createBacktest } from "../backtest/create-backtest";
import { getBasis } from "../basis/get-basis";
import { getAvgInterestRates } from "../rates/get-avg-interest-rates";

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

type Route = { pattern: RegExp; run: (m: string[], req: Request, url: URL) => Promise<unknown> };

const ROUTES: Route[] = [
  {
    pattern: /^\/aggregates\/([^/]+)$/,
    run: async ([t], _req, url) => {
      const { ticker } = parseWith(aggregatesPath, { ticker: t });
      return getAggregates({ ticker, ...parseQuery(aggregatesQuery, url.searchParams) });
    },
  },
  {
    pattern: /^\/archive$/,
    run: async (_m, _req, url) => {
      parseQuery(archiveCatalogQuery, url.searchParams);
      return getArchiveCatalog();
    },
  },
  {
    pattern: /^\/archive\/([^/]+)\/range$/,
    run: async ([f], _req, url) => getArchiveRange(parseWith(archiveFeedPath, { feed: f }).feed, parseQuery(archiveRangeQuery, url.searchParams)),
  },
  {
    pattern: /^\/archive\/([^/]+)$/,
    run: async ([f], _req, url) => getArchiveDay(parseWith(archiveFeedPath, { feed: f }).feed, parseQuery(archiveDayQuery, url.searchParams)),
  },
  {
    pattern: /^\/avg-interest-rates$/,
    run: async (_m, _req, url) => {
      parseQuery(avgInterestRatesQuery, url.searchParams);
      return getAvgInterestRates();
    },
  },
  {
    pattern: /^\/backtest\/([^/]+)$/,
    run: async ([t], req, url) => {
      const { ticker } = parseWith(backtestPath, { ticker: t });
      return createBacktest(ticker, parseQuery(backtestQuery, url.searchParams), { origin: upstreamOrigin(req, url) });
    },
  },
  { pattern: /^\/basis$/, run: async (_m, _req, url) => getBasis(parseQuery(basisQuery, url.searchParams)) },
];

/** Handle one request to the upstream (GET only; the route wrapper answers other methods with 405). */
export async function handleMarketUpstream(req: Request): Promise<Response> {
  const url = new URL(req.url);
  const subPath = url.pathname.startsWith(MARKET_UPSTREAM_PREFIX) ? url.pathname.slice(MARKET_UPSTREAM_PREFIX.length) || "/" : url.pathname;
  checkSignature(req, url, subPath);
  for (const r of ROUTES) {
    const m = r.pattern.exec(subPath);
    if (!m) continue;
    const params = m.slice(1).map((s) => {
      try {
        return decodeURIComponent(s);
      } catch {
        return s;
      }
    });
    return json(await r.run(params, req, url), { headers: { "cache-control": "no-store" } });
  }
  throw new AppError("not_found", { detail: `no market data operation at ${subPath}` });
}
