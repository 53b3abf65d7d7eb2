import { buildGuide } from "@/server/catalog/guide";
import { advisorQuoteBody } from "@/server/contracts/operations";
import { quoteChallenge, verifyQuoteProof } from "@/server/gateway/quote";
import { readJson } from "@/server/http/parse";
import { parseWith } from "@/server/validation";
import { json } from "@/server/http/respond";
import { methods } from "@/server/http/route";

export const dynamic = "force-dynamic";

// POST /vendor/agent/quote - free guide for a goal; needs only a $0 x402 wallet proof (Payment-Signature)
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: async (ctx) => {
    const body = parseWith(advisorQuoteBody, await readJson(ctx.req));
    const proof = await verifyQuoteProof(ctx);
    if (proof.type === "challenge") return quoteChallenge(ctx);
    return json(
      { ...buildGuide(await ctx.catalog(), body.goal, ctx.origin), wallet: proof.wallet, budget_usd: body.budget_usd ?? null },
      { headers: { "cache-control": "no-store" } },
    );
  },
});
