// The paid gateway, one request: match the operation -> validate parameters -> price -> (unpaid) 402 challenge
// | (paid) verify + lock -> proxy -> settle (upstream < 500) or release (5xx, timeout, unreachable, unbillable
// usage) -> the upstream's status and body, with PAYMENT-RESPONSE / X-PAYMENT-RESPONSE and svc-billing.
import { matchOperation, type Catalog, type CatalogOperation } from "../catalog/catalog";
import type { SellerRow } from "../catalog/catalog.queries";
import { OPERATION_CONTRACTS } from "../contracts/operations";
import { env } from "../env";
import { AppError } from "../errors";
import { parseQuery, parseWith } from "../validation";
import { json } from "../http/respond";
import type { RouteContext } from "../http/route";
import { microsToUsd } from "../lib/money";
import { acceptPayment, type PaidRequest } from "../payments/accept-payment";
import { createChallenge } from "../payments/create-challenge";
import { encodeBase64Json } from "../payments/offer";
import { markConsumed, releasePayment, scheduleSettlement } from "../payments/payments.queries";
import { settlePayment } from "../payments/settle-payment";
import { readProofHeader, type ProofHeader } from "../payments/x402-payload";
import { NETWORK } from "../chain/config";
import { signedByFrom } from "../chain/eip3009";
import { proxyUpstream, upstreamUrl, type UpstreamResult } from "./proxy-upstream";
import { enforceRateLimits } from "./rate-limit";
import { parseUsageHeader } from "./usage-header";

type Matched = { op: CatalogOperation; pathParams: Record<string, string>; method: string };

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

/**
 * The wallet whose per-payer budget this request spends: only one that signed the proof. `from` is just a
 * claim until the signature recovers to it, and counting claims would let anyone exhaust another wallet's
 * budget. One local ecrecover, no chain call; a proof that fails it is refused by verification anyway.
 */
async function rateLimitedPayer(proofHeader: ProofHeader): Promise<string | null> {
  if (proofHeader.type !== "x402") return null;
  const { authorization, signature } = proofHeader.proof;
  return (await signedByFrom(authorization, signature)) ? authorization.from : null;
}

function faultPoint(point: "exit_after_lock" | "exit_after_outbox"): void {
  const e = env();
  // Crash-recovery tests only: die exactly here, with the state so far durably recorded.
  if (e.NODE_ENV === "test" && e.GATEWAY_FAULT === point) process.exit(86);
}

function passThrough(r: Extract<UpstreamResult, { type: "response" }>, extra: Record<string, string>, paid: boolean): Response {
  const headers = new Headers(r.headers);
  for (const [k, v] of Object.entries(extra)) headers.set(k, v);
  // A paid response must never be stored by a shared cache and replayed to someone who did not pay.
  if (paid) headers.set("cache-control", "private, no-store");
  return new Response(r.status === 204 || r.status === 304 ? null : r.body, { status: r.status, headers });
}

function billing(fields: Record<string, string | number | null | undefined>): string {
  return Object.entries(fields)
    .filter(([, v]) => v !== null && v !== undefined && v !== "")
    .map(([k, v]) => `${k}=${v}`)
    .join("; ");
}

export async function handleGatewayRequest(ctx: RouteContext): Promise<Response> {
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
  if (price === 0n) {
    await enforceRateLimits({ sellerId: seller.id });
    return serveFree(ctx, seller, matched);
  }
  if (!seller.payToAddress)
    throw new AppError("payout_address_required", { detail: "the seller has not finished setup (no payout address to receive payments)" });

  const proofHeader = readProofHeader(ctx.req.headers);
  await enforceRateLimits({ sellerId: seller.id, payer: () => rateLimitedPayer(proofHeader) });
  const request: PaidRequest = {
    sellerId: seller.id,
    method: matched.method,
    path: ctx.url.pathname,
    query: ctx.url.search,
    operationKey: op.key,
    meterKey: op.meter?.key ?? null,
    amountMicros: price,
    payTo: seller.payToAddress,
  };

  if (proofHeader.type === "none") {
    const c = await createChallenge({ ...request, serviceSlug: op.service.slug, summary: op.summary, origin: ctx.origin });
    return json(c.body, { status: 402, headers: c.headers });
  }
  if (proofHeader.type === "invalid") throw new AppError("payment_invalid", { reason: "malformed_payment", detail: proofHeader.detail });

  // Server-Timing on paid responses: where the gateway's overhead goes (no secrets, durations only).
  const timing: string[] = [];
  let mark = performance.now();
  const lap = (name: string) => {
    const now = performance.now();
    timing.push(`${name};dur=${(now - mark).toFixed(1)}`);
    mark = now;
  };
  const accepted = await acceptPayment(request, proofHeader.proof);
  lap("verify_lock");
  if (accepted.type === "rejected") throw accepted.error;
  const paymentId = accepted.paymentId;
  faultPoint("exit_after_lock");

  const upstream = await proxyUpstream({
    url: upstreamUrl(op, matched.pathParams, ctx.url.search),
    method: matched.method,
    signingSecret: seller.signingSecret,
    requestHeaders: ctx.req.headers,
    origin: ctx.origin,
  });
  lap("upstream");
  const released = { "svc-billing": billing({ payment: paymentId, status: "released", charged_usd: "0.000000" }), "svc-payment-id": paymentId };
  if (upstream.type !== "response") {
    await releasePayment(paymentId, upstream.type === "timeout" ? "upstream_timeout" : "upstream_unreachable");
    throw new AppError(upstream.type === "timeout" ? "upstream_timeout" : "upstream_unavailable", {
      detail: "the upstream did not answer; you were not charged and this payment is released. Retry with a fresh 402.",
      extra: { payment_id: paymentId },
      headers: released,
    });
  }
  if (upstream.status >= 500) {
    await releasePayment(paymentId, "upstream_error", upstream.status);
    return passThrough(upstream, released, true);
  }
  const usage = parseUsageHeader(upstream.usageHeader, catalog.meters, op.meter?.key ?? null);
  if (usage.type === "error") {
    await releasePayment(paymentId, usage.code, upstream.status);
    return passThrough(upstream, { ...released, "svc-usage-error": usage.code }, true);
  }
  const units = op.meter ? (usage.units.get(op.meter.key) ?? 1) : 1;
  if (!(await scheduleSettlement(paymentId, upstream.status, units, env().PAYMENT_LEASE_SECONDS))) return passThrough(upstream, released, true);
  faultPoint("exit_after_outbox");

  lap("schedule");
  const settled = await settlePayment(paymentId);
  lap("settle");
  if (settled.type === "failed") {
    throw new AppError("settlement_failed", {
      detail: "the signed payment did not settle; retry from the start for a fresh challenge",
      extra: { settlementReason: settled.reason, payment_id: paymentId },
      headers: { "svc-payment-id": paymentId },
    });
  }
  const charged = { payment: paymentId, rail: "x402", operation: op.key, meter: op.meter?.key, units, amount_usd: microsToUsd(price) };
  if (settled.type !== "settled") {
    // Served; the chain did not confirm in time. The outbox row stays pending and the reconciler finishes it.
    return passThrough(upstream, { "svc-billing": billing({ ...charged, status: "settlement_pending" }), "svc-payment-id": paymentId }, true);
  }
  await markConsumed(paymentId);
  const receipt = encodeBase64Json({ success: true, transaction: settled.transaction, network: NETWORK, payer: settled.payer });
  return passThrough(
    upstream,
    {
      "PAYMENT-RESPONSE": receipt,
      "X-PAYMENT-RESPONSE": receipt,
      "svc-billing": billing({ ...charged, status: "charged", tx: settled.transaction }),
      "svc-payment-id": paymentId,
      "server-timing": timing.join(", "),
    },
    true,
  );
}

async function serveFree(ctx: RouteContext, seller: SellerRow, m: Matched): Promise<Response> {
  const upstream = await proxyUpstream({
    url: upstreamUrl(m.op, m.pathParams, ctx.url.search),
    method: m.method,
    signingSecret: seller.signingSecret!,
    requestHeaders: ctx.req.headers,
    origin: ctx.origin,
  });
  if (upstream.type === "timeout") throw new AppError("upstream_timeout", { detail: "the upstream did not answer in time" });
  if (upstream.type === "unreachable") throw new AppError("upstream_unavailable", { detail: "the upstream could not be reached" });
  return passThrough(upstream, { "svc-billing": billing({ status: "free", operation: m.op.key, amount_usd: "0.000000" }) }, false);
}
