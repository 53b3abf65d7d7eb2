// POST /vendor/agent/quote: the free advisor quote. No money moves, but the caller proves a wallet with a $0 proof on
// a wallet rail (x402 in PAYMENT-SIGNATURE, MPP as `Authorization: Payment`), through the same pipeline as a paid call:
// without one it gets a $0 402 (the same shapes as a priced 402, every rail that can take $0) to sign; with one, the
// guide for its goal, naming the wallet.
import { advisorQuoteBody } from "../contracts/operations";
import { buildGuide } from "../discovery/guide";
import { readJson } from "../http/parse";
import { json } from "../http/respond";
import type { RouteContext } from "../http/route";
import { parseWith } from "../validation";
import { paidCall } from "./paid-call";
import { renderOutcome } from "./render-outcome";
import { runPaidCall } from "./run-paid-call";

export async function handleQuote(ctx: RouteContext): Promise<Response> {
  let body: { goal: string; budget_usd?: string | null };
  return runPaidCall({
    proofs: ctx.req.headers,
    client: ctx.clientAddress,
    async price() {
      body = parseWith(advisorQuoteBody, await readJson(ctx.req));
      const call = paidCall(await ctx.seller(), ctx.origin, {
        purpose: "call",
        method: "POST",
        path: ctx.url.pathname,
        query: "",
        operationKey: "advisor_quote",
        meterKey: "advisor",
        includedUnits: 0,
        serviceSlug: "agent-advisor",
        summary: "Free quote: a $0 wallet proof, never a purchase",
        amountMicros: 0n,
      });
      const detail =
        "the quote is free: sign this $0 offer to prove a wallet (x402 in PAYMENT-SIGNATURE, or MPP as Authorization: Payment); nothing is charged";
      return { type: "wallet_proof", call, challenge: { detail } };
    },
    async render(o) {
      if (o.type !== "proven") return renderOutcome(o);
      const guide = buildGuide(await ctx.catalog(), body.goal, ctx.origin);
      return json({ ...guide, wallet: o.wallet, budget_usd: body.budget_usd ?? null }, { headers: { "cache-control": "no-store" } });
    },
  });
}
