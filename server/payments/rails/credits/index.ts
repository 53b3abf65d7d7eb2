// The credits rail: prepaid plan credit, paid by the agent's bearer token instead of a per-call proof. Implicit: it
// is asked only when the request carries no payment proof. It reserves before the call (one statement, guarded by
// the balance), captures off the response path, and releases on failure; there is nothing to settle on chain.
import { AppError } from "../../../errors";
import { verifyAccessToken } from "../../../identity/verify-access-token";
import { AGENT_AUTHORIZATION_HEADER, parseAgentAuthorization } from "../../../identity/parse-agent-authorization";
import { drawCredits } from "../../../billing/draw-credits";
import { enqueueCapture } from "../../../billing/capture-queue";
import { releaseDraw } from "../../../billing/billing.queries";
import type { HeldPayment, Rail } from "../rail";

type Bearer = { token: string };

function invalidToken(reason: string, detail: string): AppError {
  return new AppError("invalid_token", { reason, detail });
}

export const creditsRail: Rail<Bearer> = {
  name: "credits",
  implicit: true,
  payerKind: "credential",
  howToPay: "a plan: send your agent access token (Authorization: Bearer) and a plan covering the meter pays the call from its credit",

  describe: () => ({
    proofHeader: "Authorization: Bearer <agent access token> (SVC-Agent-Authorization on MPP)",
    plans: "/manifest.json `plans`; buy with POST /plans/{planId}/purchase, top up with POST /extend",
    entitlements: "/agent/entitlements",
  }),

  securityScheme: {
    type: "http",
    scheme: "bearer",
    bearerFormat: "JWT",
    description: "Agent access token from /oauth2/token; a plan that covers the meter pays the call.",
  },

  // Discovery lists it beside the wallet rails (a plan's credit pays the same price); a 402 offers nothing for it:
  // credit is bought beforehand, on the plans' purchase URLs.
  discoveryOffers: (amountMicros) => [
    {
      protocol: "credits",
      intent: "charge",
      method: "plan",
      currency: "USD",
      amount: amountMicros.toString(),
      description: "drawn from prepaid plan credit (send the agent bearer)",
    },
  ],
  canOffer: () => false,
  offer: () => ({}),

  readProof(headers) {
    const parsed = parseAgentAuthorization(headers.get("authorization"), headers.get(AGENT_AUTHORIZATION_HEADER));
    if (parsed.type === "none") return { type: "absent" };
    if (parsed.type === "error") return { type: "malformed", error: invalidToken(parsed.reason, parsed.detail) };
    return { type: "present", proof: { token: parsed.token }, header: parsed.via === "authorization" ? "Authorization" : "SVC-Agent-Authorization" };
  },

  async accept(call, { token }) {
    const v = await verifyAccessToken(token);
    if (v.type === "invalid") return { type: "refused", error: invalidToken(v.reason, v.detail) };
    if (v.claims.sid !== call.sellerId) return { type: "refused", error: invalidToken("token_invalid", "the access token belongs to another storefront") };
    // Credit buys calls, not more credit.
    if (call.purpose !== "call") return { type: "declined" };
    const draw = await drawCredits(call, v.claims);
    if (draw.type === "credential_invalid")
      return { type: "refused", error: invalidToken("token_invalid", "the credential is revoked or expired; register again") };
    if (draw.type === "uncovered") return { type: "declined", reason: draw.reason, detail: draw.detail };
    const payment: HeldPayment = {
      id: draw.paymentId,
      sellerId: call.sellerId,
      amountMicros: draw.amountMicros,
      payTo: null,
      network: null,
      asset: null,
      payer: v.claims.sub,
      railData: null,
    };
    return { type: "held", hold: { rail: "credits", payment, billing: draw.billing } };
  },

  capture(hold, served) {
    enqueueCapture({ paymentId: hold.payment.id, units: served.units, upstreamStatus: served.upstreamStatus });
  },

  // Never reached through the outbox (captures are queued); kept total for the interface.
  async settle() {
    return { type: "settled", transaction: null };
  },

  release: releaseDraw,

  // svc-billing carries the draw (rail=credits, amount, balance left); there is no protocol receipt.
  receipt: () => ({}),
};
