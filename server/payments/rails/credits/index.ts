// The credits rail: prepaid plan credit, paid by the agent's bearer token instead of a per-call proof. Implicit: it
// is asked only when the request carries no payment proof. It reserves before the answer (one statement, guarded by
// the balance), captures off the response path, and releases on failure; there is nothing to settle on chain. A read
// by a credential whose credit covered its calls moments ago starts its upstream while the reservation travels
// (`deliverWhileAccepting`); the answer still waits for the reservation and is dropped unserved if it fails.
import { AppError } from "../../../errors";
import { peekVerifiedToken, verifyAccessToken } from "../../../identity/verify-access-token";
import { AGENT_AUTHORIZATION_HEADER, parseAgentAuthorization } from "../../../identity/parse-agent-authorization";
import { drawCredits } from "./draw-credits";
import { enqueueCapture } from "./capture-queue";
import { leaseBook } from "./instance-lease-book";
import { returnLapsedLeases } from "./leases.queries";
import { env } from "../../../env";
import { releaseDraw } from "./credits.queries";
import { endEarly, mayStartEarly } from "./coverage-memo";
import type { AcceptOutcome, HeldPayment, PaidCall, Rail } from "../rail";

/** The agent's bearer, and the client's Idempotency-Key for this call if it sent one (its retries draw once). */
type Bearer = { token: string; idempotencyKey?: string };

const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;

function invalidToken(reason: string, detail: string): AppError {
  return new AppError("invalid_token", { reason, detail });
}

/** Calls whose upstream started before their reservation (they reserve ahead of the credential's other calls). */
const startedEarly = new WeakMap<Bearer, { credentialId: string; meterKey: string }>();

async function acceptBearer(call: PaidCall, token: string, early: boolean, idempotencyKey?: string): Promise<AcceptOutcome> {
  const v = await verifyAccessToken(token);
  if (v.type === "invalid") return { type: "refused", error: invalidToken(v.reason, v.detail) };
  if (v.claims.sid !== call.sellerId) return { type: "refused", error: invalidToken("token_invalid", "the access token belongs to another storefront") };
  // Credit buys calls, not more credit.
  if (call.purpose !== "call") return { type: "declined" };
  const draw = await drawCredits(call, v.claims, { early, idempotencyKey });
  if (draw.type === "replay") return draw;
  if (draw.type === "refused") return draw;
  if (draw.type === "credential_invalid")
    return { type: "refused", error: invalidToken("token_invalid", "the credential is revoked or expired; register again") };
  if (draw.type === "uncovered") return { type: "declined", error: draw.error, detail: draw.detail };
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
  // Only a draw under an Idempotency-Key can be asked for again (its retries): any other's answer is not kept.
  return { type: "held", hold: { rail: "credits", payment, billing: draw.billing, replayable: idempotencyKey !== undefined } };
}

export const creditsRail = {
  name: "credits" as const,
  implicit: true,
  payerKind: "credential" as const,
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

  // Discovery lists it beside the wallet rails (a plan's credit pays the same price); a 402 offers nothing for it (no
  // `challenge`): credit is bought beforehand, on the plans' purchase URLs.
  discovery: { method: "plan", description: "drawn from prepaid plan credit (send the agent bearer)" },
  price: (amountMicros) => ({ amount: amountMicros.toString(), currency: "USD", network: null, asset: null }),

  // The bearer's credential spends its own rate-limit budget (docs/rate-limits.md), once the token verifies.
  async payer(proof) {
    const v = await verifyAccessToken(proof.token);
    return v.type === "valid" ? `credential:${v.claims.sub}` : null;
  },

  readProof(headers) {
    const parsed = parseAgentAuthorization(headers.get("authorization"), headers.get(AGENT_AUTHORIZATION_HEADER));
    if (parsed.type === "none") return { type: "absent" };
    if (parsed.type === "error") return { type: "malformed", error: invalidToken(parsed.reason, parsed.detail) };
    const key = headers.get("idempotency-key");
    if (key !== null && !IDEMPOTENCY_KEY.test(key))
      return {
        type: "malformed",
        error: new AppError("invalid_request", {
          reason: "invalid_idempotency_key",
          detail: "Idempotency-Key is 1 to 255 visible ASCII characters (a UUID will do)",
        }),
      };
    return {
      type: "present",
      proof: key === null ? { token: parsed.token } : { token: parsed.token, idempotencyKey: key },
      header: parsed.via === "authorization" ? "Authorization" : "SVC-Agent-Authorization",
    };
  },

  // The upstream may start while the credit is reserved when this instance saw the credential's credit cover this
  // meter moments ago, for this call and one more, and no other reservation of it is in flight here
  // (./coverage-memo.ts).
  deliverWhileAccepting(call, proof) {
    // A call with an Idempotency-Key may be a retry of one already paid, answered from what was kept: the upstream is
    // never started for it before its draw says it is new.
    if (!call.meterKey || proof.idempotencyKey !== undefined) return false;
    const claims = peekVerifiedToken(proof.token);
    if (!claims || claims.sid !== call.sellerId || !mayStartEarly(claims.sub, call.meterKey, call.amountMicros)) return false;
    startedEarly.set(proof, { credentialId: claims.sub, meterKey: call.meterKey });
    return true;
  },

  async accept(call, proof) {
    const early = startedEarly.get(proof);
    startedEarly.delete(proof);
    try {
      return await acceptBearer(call, proof.token, early !== undefined, proof.idempotencyKey);
    } finally {
      // Also when it ended before reserving (a token that expired meanwhile): the others must not wait for it.
      if (early) endEarly(early.credentialId, early.meterKey);
    }
  },

  // Charged off the response path, never through the outbox; svc-billing carries the draw (rail=credits, amount,
  // balance left), and there is no protocol receipt. The capture's statement keeps svc-receipt.
  capture(hold, served) {
    const s = { units: served.units, upstreamStatus: served.upstreamStatus, receipt: served.receipt };
    // A call spent from a lease is recorded with its lease's next batch; a reserved one captured as before.
    if (leaseBook().record(hold.payment.id, s)) return;
    enqueueCapture({ paymentId: hold.payment.id, units: served.units, upstreamStatus: served.upstreamStatus, receipt: served.receipt });
  },

  // A leased call's price goes back to its lease in memory; a reserved one, to its grants.
  release: (paymentId, reason, upstreamStatus) => (leaseBook().release(paymentId) ? Promise.resolve(true) : releaseDraw(paymentId, reason, upstreamStatus)),

  // Leases whose instance never returned them (a crash) go back once their calls in flight could no longer be recorded.
  reconcile: async () => ({ released: await returnLapsedLeases(env().PAYMENT_LEASE_SECONDS) }),
} satisfies Rail<Bearer>;
