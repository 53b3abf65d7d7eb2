// The market data upstream: an HTTP API of its own under /upstream/market/v1, which the gateway proxies paid calls to,
// one route per registered data operation (server/market/operations). It answers only requests the gateway signed with
// the seller's signing secret (MARKET_UPSTREAM_SECRET here), so the data cannot be fetched around the payment.
// The gateway in this same process hands it a call it already validated instead (`answerValidatedCall`): the same
// answer, without the HTTP request, the signature made and checked, or the parameters parsed twice.
import { timingSafeEqual } from "node:crypto";
import type { ParsedParameters } from "../../contracts/operations";
import { env } from "../../env";
import { AppError } from "../../errors";
import { json, JSON_CONTENT_TYPE, stringifyJson } from "../../http/respond";
import { originParts } from "../../lib/origin-parts";
import { verifyUpstreamRequest } from "../../upstream-auth/signature";
import { parseQuery, parseWith } from "../../validation";
import { systemClock } from "../lib/envelope";
import { archiveFeeds, matchUpstreamPath } from "../operations";
import type { DataOperation } from "../operations/operation";
import { getMarketProviders } from "../providers/get-market-providers";

export const MARKET_UPSTREAM_PREFIX = "/upstream/market/v1";

/**
 * Origin for absolute links (the backtest artifact.url): the public host the agent called, which the
 * gateway passes as X-Forwarded-Host/Proto on the signed request; else PUBLIC_URL; else this request's host.
 */
export function upstreamOrigin(req: Request, url: URL): string {
  return originOf(req.headers.get("x-forwarded-host")?.split(",")[0]?.trim(), req.headers.get("x-forwarded-proto")?.split(",")[0]?.trim(), url);
}

function originOf(fwdHost: string | undefined, fwdProto: string | undefined, url: URL): string {
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
  const subPath = subPathOf(url);
  checkSignature(req, url, subPath);
  // The routes are the registry's operations (their upstream path templates): nothing here names one.
  const m = matchUpstreamPath(subPath);
  if (!m) throw new AppError("not_found", { detail: `no market data operation at ${subPath}` });
  const { contract } = m.op;
  const path = contract.pathParams ? parseWith(contract.pathParams, m.pathParams) : {};
  const query = contract.query ? parseQuery(contract.query, url.searchParams) : {};
  return json(await runOperation(m.op, path, query, upstreamOrigin(req, url)), { headers: ANSWER_HEADERS });
}

const ANSWER_HEADERS = { "cache-control": "no-store" };
/** The headers json() gives an answer made with ANSWER_HEADERS, in the order a Headers lists them. */
const ANSWER_HEADER_LIST: readonly [string, string][] = [
  ["cache-control", ANSWER_HEADERS["cache-control"]],
  ["content-type", JSON_CONTENT_TYPE],
];

function subPathOf(url: URL): string {
  return url.pathname.startsWith(MARKET_UPSTREAM_PREFIX) ? url.pathname.slice(MARKET_UPSTREAM_PREFIX.length) || "/" : url.pathname;
}

function runOperation(op: DataOperation, path: unknown, query: unknown, origin: string): Promise<unknown> {
  return op.run({ path, query } as Parameters<typeof op.run>[0], { providers: getMarketProviders(), now: systemClock, origin, feeds: archiveFeeds() });
}

/** A call the gateway in this process priced and validated: what it would have signed, and the parameters it parsed. */
export type ValidatedCall = {
  method: string;
  url: URL;
  /** The seller's signing secret, which over HTTP would have signed the request. */
  signingSecret: string;
  /** The public origin the agent called (X-Forwarded-Host and -Proto over HTTP). */
  origin: string;
  parameters: ParsedParameters;
};

/** An answer as the text json() would have sent, with the headers it would have had. */
export type TextAnswer = { status: number; headers: readonly [string, string][]; text: string };

/**
 * The answer handleMarketUpstream gives the signed request for this call, made without it: the seller's secret is
 * compared with this upstream's instead of an HMAC being made and checked, and the parameters the gateway parsed with
 * this very operation's contract are taken as they are. Null when that cannot vouch for the call (another seller's
 * secret, another method, a path that reaches another operation or reads its segments otherwise): the caller sends
 * the signed request, which answers it as over HTTP. A thrown error is the caller's to render, as `inProcess` does.
 */
export async function answerValidatedCall(call: ValidatedCall): Promise<TextAnswer | null> {
  if (call.method !== "GET" || !isUpstreamSecret(call.signingSecret)) return null;
  const m = matchUpstreamPath(subPathOf(call.url));
  const { contract, pathParams, path, query } = call.parameters;
  if (!m || m.op.contract !== contract || !sameSegments(m.pathParams, pathParams)) return null;
  const { host, proto } = originParts(call.origin);
  const body = await runOperation(m.op, path, query, originOf(host, proto, call.url));
  return { status: 200, headers: ANSWER_HEADER_LIST, text: stringifyJson(body) };
}

function isUpstreamSecret(secret: string): boolean {
  const mine = Buffer.from(env().MARKET_UPSTREAM_SECRET);
  const theirs = Buffer.from(secret);
  return mine.length === theirs.length && timingSafeEqual(mine, theirs);
}

function sameSegments(a: Record<string, string>, b: Record<string, string>): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => a[k] === b[k]);
}
