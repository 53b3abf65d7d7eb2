// The free advisor quote: no money moves, but the caller proves a wallet with a $0 x402 proof. Without one it
// gets a $0 402 offer (same shapes as a priced 402) to sign.
import { AppError } from "../errors";
import { json } from "../http/respond";
import type { RouteContext } from "../http/route";
import { createChallenge } from "../payments/create-challenge";
import { verifyWalletProof } from "../payments/verify-wallet-proof";
import { readProofHeader } from "../payments/x402-payload";

export async function verifyQuoteProof(ctx: RouteContext): Promise<{ type: "challenge" } | { type: "ok"; wallet: string }> {
  const seller = await ctx.seller();
  if (!seller.payToAddress)
    throw new AppError("payout_address_required", { detail: "the seller has not finished setup (no payout address to receive payments)" });
  const header = readProofHeader(ctx.req.headers);
  if (header.type === "none") return { type: "challenge" };
  if (header.type === "invalid") throw new AppError("payment_invalid", { reason: "malformed_payment", detail: header.detail });
  const { wallet } = await verifyWalletProof(header.proof, { sellerId: seller.id, method: "POST", path: ctx.url.pathname, payTo: seller.payToAddress });
  return { type: "ok", wallet };
}

export async function quoteChallenge(ctx: RouteContext): Promise<Response> {
  const seller = await ctx.seller();
  const c = await createChallenge({
    sellerId: seller.id,
    method: "POST",
    path: ctx.url.pathname,
    query: "",
    operationKey: "advisor_quote",
    meterKey: "advisor",
    serviceSlug: "agent-advisor",
    summary: "Free quote: a $0 wallet proof, never a purchase",
    amountMicros: 0n,
    payTo: seller.payToAddress!,
    origin: ctx.origin,
  });
  return json(
    { ...c.body, detail: "the quote is free: sign this $0 x402 offer (PAYMENT-SIGNATURE) to prove a wallet; nothing is charged" },
    { status: 402, headers: c.headers },
  );
}
