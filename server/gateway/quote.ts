// The free advisor quote: no money moves, but the caller proves a wallet with a $0 proof on a wallet rail (x402 in
// PAYMENT-SIGNATURE, MPP as `Authorization: Payment`). Without one it gets a $0 402 (the same shapes as a priced
// 402, every rail that can prove a wallet) to sign.
import { AppError } from "../errors";
import type { RouteContext } from "../http/route";
import { canonicalQuery } from "../lib/canonical-query";
import { createChallenge } from "../payments/create-challenge";
import { readPaymentProof } from "../payments/rails";
import type { PaidCall } from "../payments/rails/rail";
import { requestBinding } from "../payments/request-binding";
import { renderChallenge } from "./render-outcome";

async function quoteCall(ctx: RouteContext): Promise<PaidCall> {
  const seller = await ctx.seller();
  if (!seller.payToAddress)
    throw new AppError("payout_address_required", { detail: "the seller has not finished setup (no payout address to receive payments)" });
  const query = canonicalQuery("");
  return {
    purpose: "call",
    sellerId: seller.id,
    payTo: seller.payToAddress,
    origin: ctx.origin,
    realm: new URL(ctx.origin).hostname,
    method: "POST",
    path: ctx.url.pathname,
    canonicalQuery: query,
    operationKey: "advisor_quote",
    meterKey: "advisor",
    includedUnits: 0,
    serviceSlug: "agent-advisor",
    summary: "Free quote: a $0 wallet proof, never a purchase",
    amountMicros: 0n,
    binding: requestBinding({ sellerId: seller.id, method: "POST", path: ctx.url.pathname, canonicalQuery: query }),
  };
}

export async function verifyQuoteProof(ctx: RouteContext): Promise<{ type: "challenge" } | { type: "ok"; wallet: string }> {
  const call = await quoteCall(ctx);
  const proof = readPaymentProof(ctx.req.headers);
  if (proof.type === "none") return { type: "challenge" };
  if (proof.type === "malformed") throw proof.error;
  if (!proof.rail.verifyWalletProof)
    throw new AppError("payment_invalid", {
      reason: "not_a_wallet_proof",
      detail: `a ${proof.rail.name} proof cannot prove a wallet; sign the $0 offer of this 402`,
    });
  const { wallet } = await proof.rail.verifyWalletProof(proof.proof, {
    sellerId: call.sellerId,
    method: call.method,
    path: call.path,
    payTo: call.payTo,
    realm: call.realm,
  });
  return { type: "ok", wallet };
}

export async function quoteChallenge(ctx: RouteContext): Promise<Response> {
  const c = await createChallenge(await quoteCall(ctx), {
    detail: "the quote is free: sign this $0 offer to prove a wallet (x402 in PAYMENT-SIGNATURE, or MPP as Authorization: Payment); nothing is charged",
  });
  return renderChallenge(c);
}
