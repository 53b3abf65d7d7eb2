// From a request to what it costs. `paidCall` is the one place a PaidCall is assembled, for every entry point (a data
// call, a plan purchase, the quote): it checks the seller can be paid, and fixes the canonical query and the binding
// every rail checks proofs against. `priceDataCall` prices a data call: match the operation in the seller's catalog,
// validate its parameters (a 400 naming the parameter, before any charge), price it from its meter.
import { matchOperation, type Catalog, type CatalogOperation } from "../catalog/catalog";
import type { SellerRow } from "../catalog/catalog.queries";
import type { ParsedParameters } from "../contracts/operations";
import { AppError } from "../errors";
import type { RouteContext } from "../http/route";
import { canonicalQuery } from "../lib/canonical-query";
import { originParts } from "../lib/origin-parts";
import { getContract, refusalBeforePayment } from "../market/operations";
import type { PaidCall } from "../payments/paid-call";
import { requestBinding } from "../payments/request-binding";
import { parseQuery, parseWith } from "../validation";
import { proxyUpstream, upstreamUrl } from "./proxy-upstream";
import type { Priced } from "./run-paid-call";
import type { Delivery } from "./serve-paid-call";

type Matched = { op: CatalogOperation; pathParams: Record<string, string>; method: string };

/** What an entry point says about its call; `paidCall` adds the seller's side, the canonical query and the binding. */
export type CallTerms = Omit<PaidCall, "sellerId" | "payTo" | "origin" | "realm" | "canonicalQuery" | "binding"> & { query: URLSearchParams | string };

/** The call as every rail sees it. A seller with no payout address cannot be paid on any rail (409). */
export function paidCall(seller: SellerRow, origin: string, t: CallTerms): PaidCall {
  if (!seller.payToAddress)
    throw new AppError("payout_address_required", { detail: "the seller has not finished setup (no payout address to receive payments)" });
  const query = canonicalQuery(t.query);
  // Made when a rail or the approvals first read it: the credits rail never does.
  let binding: string | undefined;
  return {
    purpose: t.purpose,
    sellerId: seller.id,
    payTo: seller.payToAddress,
    origin,
    realm: originParts(origin).hostname,
    method: t.method,
    path: t.path,
    canonicalQuery: query,
    operationKey: t.operationKey,
    meterKey: t.meterKey,
    includedUnits: t.includedUnits,
    serviceSlug: t.serviceSlug,
    summary: t.summary,
    amountMicros: t.amountMicros,
    get binding() {
      return (binding ??= requestBinding({ sellerId: seller.id, method: t.method, path: t.path, canonicalQuery: query }));
    },
    credentialId: t.credentialId,
  };
}

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

/**
 * Bad parameters are refused before any charge: a 400 naming the parameter and the bound. So is a call the upstream
 * cannot serve at all (a live-only operation on an offline instance: 403 not_included), so no payment is ever asked for it.
 * What the contract parsed goes to an in-process upstream with the call, which then need not parse it again.
 */
function validateParameters(m: Matched, url: URL): ParsedParameters | undefined {
  const contract = getContract(m.op.key);
  if (!contract) return undefined;
  const path = contract.pathParams ? parseWith(contract.pathParams, m.pathParams) : {};
  const query = contract.query ? parseQuery(contract.query, url.searchParams) : {};
  const refusal = refusalBeforePayment(m.op.key, m.op.service.upstreamUrl);
  if (refusal) throw refusal;
  return { contract, pathParams: m.pathParams, path, query };
}

/**
 * Longest path and query a priced request may have: its 402's headers stay under 15 KiB (about 4 KiB with a short
 * request; each byte of target adds about 15), inside what Node clients read (16 KiB). The longest request an operation's contract allows, encoded as
 * URLSearchParams encodes it, is about 830 bytes (the screener with every filter at its longest; the others are under
 * 340): paid-call.test.ts builds each one and holds it to this bound.
 */
export const MAX_PAID_TARGET = 896;

/** A data call's price and delivery: its upstream, signed with the seller's secret. */
export async function priceDataCall(ctx: RouteContext): Promise<Priced> {
  const seller = await ctx.seller();
  const catalog = await ctx.catalog();
  const matched = matchRequest(catalog, ctx.req, ctx.url);
  // A parameter past its bound is its 400 first (it names the parameter); what is left long is extra query.
  const parameters = validateParameters(matched, ctx.url);
  // A 402 repeats the request in its headers (PAYMENT-REQUIRED, the MPP challenges, the payment id), about ten bytes
  // of headers for each byte of path and query: a long target of a priced route is refused before any challenge.
  if (ctx.url.pathname.length + ctx.url.search.length > MAX_PAID_TARGET)
    throw new AppError("uri_too_long", {
      detail: `a paid request's path and query are at most ${MAX_PAID_TARGET} bytes (a 402 repeats them in its headers)`,
    });
  const { op } = matched;
  const price = op.meter?.priceMicros ?? null;
  if (price === null)
    throw new AppError("plan_required", {
      reason: "access_not_found",
      detail: "this operation has no per-request price and no plan covers it",
      extra: { plans: [], meters: op.meter ? [op.meter.key] : [] },
    });
  const signingSecret = seller.signingSecret;
  if (!signingSecret) throw new AppError("signing_secret_required", { detail: "the seller has not finished setup (no signing secret)" });
  const url = upstreamUrl(op, matched.pathParams, ctx.url.search);
  const delivery: Delivery = {
    deliver: () => proxyUpstream({ url, method: matched.method, signingSecret, requestHeaders: ctx.req.headers, origin: ctx.origin, parameters }),
    meters: catalog.meters,
  };
  if (price === 0n) return { type: "free", sellerId: seller.id, operationKey: op.key, delivery };
  const call = paidCall(seller, ctx.origin, {
    purpose: "call",
    method: matched.method,
    path: ctx.url.pathname,
    query: ctx.url.searchParams,
    operationKey: op.key,
    meterKey: op.meter?.key ?? null,
    includedUnits: op.meter?.includedUnits ?? 0,
    serviceSlug: op.service.slug,
    summary: op.summary,
    amountMicros: price,
  });
  return { type: "paid", call, delivery };
}
