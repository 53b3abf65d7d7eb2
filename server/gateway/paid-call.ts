// From a request to what it costs, computed once: match the operation in the seller's catalog, validate its
// parameters (a 400 naming the parameter, before any charge), price it from its meter, check the seller can be
// paid, and fix the canonical query and the binding every rail checks proofs against.
import { matchOperation, type Catalog, type CatalogOperation } from "../catalog/catalog";
import type { SellerRow } from "../catalog/catalog.queries";
import { OPERATION_CONTRACTS } from "../contracts/operations";
import { AppError } from "../errors";
import type { RouteContext } from "../http/route";
import { canonicalQuery } from "../lib/canonical-query";
import type { PaidCall } from "../payments/rails/rail";
import { requestBinding } from "../payments/request-binding";
import { parseQuery, parseWith } from "../validation";
import { upstreamUrl } from "./proxy-upstream";

type Matched = { op: CatalogOperation; pathParams: Record<string, string>; method: string };

/** Where the call goes once it may: the upstream URL, signed with the seller's secret. */
export type UpstreamTarget = { url: URL; method: string; signingSecret: string; op: CatalogOperation; catalog: Catalog };

export type PricedCall =
  { type: "free"; seller: SellerRow; upstream: UpstreamTarget } | { type: "priced"; seller: SellerRow; call: PaidCall; upstream: UpstreamTarget };

/** 404 for a path no operation has, 405 (with Allow) for a known path and another method. */
export function matchRequest(catalog: Catalog, req: Request, url: URL): Matched {
  // HEAD is answered as GET (same price, same binding); the body is dropped by the HTTP layer.
  const method = req.method === "HEAD" ? "GET" : req.method.toUpperCase();
  const m = matchOperation(catalog, method, url.pathname);
  if (!m) throw new AppError("not_found", { detail: `no operation at ${url.pathname}; see /openapi.json` });
  if ("methodMismatch" in m) {
    const allow = [...new Set(m.allowed)].join(", ");
    throw new AppError("method_not_allowed", { detail: `${req.method} is not supported here; use ${allow}`, headers: { allow } });
  }
  return { op: m.operation, pathParams: m.pathParams, method };
}

/** Bad parameters are refused before any charge: a 400 naming the parameter and the bound. */
function validateParameters(m: Matched, url: URL): void {
  const contract = OPERATION_CONTRACTS[m.op.key];
  if (!contract) return;
  if (contract.pathParams) parseWith(contract.pathParams, m.pathParams);
  if (contract.query) parseQuery(contract.query, url.searchParams);
}

export async function priceCall(ctx: RouteContext): Promise<PricedCall> {
  const seller = await ctx.seller();
  const catalog = await ctx.catalog();
  const matched = matchRequest(catalog, ctx.req, ctx.url);
  validateParameters(matched, ctx.url);
  const { op } = matched;
  const price = op.meter?.priceMicros ?? null;
  if (price === null)
    throw new AppError("plan_required", {
      reason: "access_not_found",
      detail: "this operation has no per-request price and no plan covers it",
      extra: { plans: [], meters: op.meter ? [op.meter.key] : [] },
    });
  if (!seller.signingSecret) throw new AppError("signing_secret_required", { detail: "the seller has not finished setup (no signing secret)" });
  const upstream: UpstreamTarget = {
    url: upstreamUrl(op, matched.pathParams, ctx.url.search),
    method: matched.method,
    signingSecret: seller.signingSecret,
    op,
    catalog,
  };
  if (price === 0n) return { type: "free", seller, upstream };
  if (!seller.payToAddress)
    throw new AppError("payout_address_required", { detail: "the seller has not finished setup (no payout address to receive payments)" });

  const query = canonicalQuery(ctx.url.searchParams);
  const call: PaidCall = {
    purpose: "call",
    sellerId: seller.id,
    payTo: seller.payToAddress,
    origin: ctx.origin,
    realm: new URL(ctx.origin).hostname,
    method: matched.method,
    path: ctx.url.pathname,
    canonicalQuery: query,
    operationKey: op.key,
    meterKey: op.meter?.key ?? null,
    includedUnits: op.meter?.includedUnits ?? 0,
    serviceSlug: op.service.slug,
    summary: op.summary,
    amountMicros: price,
    binding: requestBinding({ sellerId: seller.id, method: matched.method, path: ctx.url.pathname, canonicalQuery: query }),
  };
  return { type: "priced", seller, call, upstream };
}
