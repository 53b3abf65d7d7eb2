// The phase table's branches that real payments reach only rarely (its ordinary paths are driven through every rail in
// payment-phase.db.test.ts): what a paid payment's retry is worth, and the edges of the clock.
import { describe, expect, it } from "vitest";
import { isIdempotencyLock, paymentPhase, type PhaseFacts } from "./payment-phase";

const NOW = Date.parse("2026-11-24T12:00:00Z");
const HOUR = 3_600_000;
const paid = (over: Partial<PhaseFacts> = {}): PhaseFacts => ({
  status: "consumed",
  failureReason: null,
  expiresAt: new Date(NOW - HOUR),
  settledAt: new Date(NOW - HOUR),
  verifiedAt: new Date(NOW - HOUR),
  createdAt: new Date(NOW - HOUR),
  method: "GET",
  fromChallenge: true,
  idempotencyKeyed: false,
  purchase: false,
  settlement: { status: "succeeded", deliveredFirst: false },
  ...over,
});

describe("paymentPhase", () => {
  it("a challenge is unpaid until the instant it expires, then expired", () => {
    const c = paid({ status: "challenged", settledAt: null, verifiedAt: null, settlement: null });
    expect(paymentPhase({ ...c, expiresAt: new Date(NOW + 1) }, NOW, 24)).toEqual({ phase: "unpaid", next: "pay" });
    expect(paymentPhase({ ...c, expiresAt: new Date(NOW) }, NOW, 24)).toEqual({ phase: "expired", next: "pay_again" });
  });

  it("a paid read replays within the window, to the millisecond, and not after; PAYMENT_REPLAY_HOURS=0 turns it off", () => {
    expect(paymentPhase(paid({ settledAt: new Date(NOW - 24 * HOUR) }), NOW, 24).next).toBe("retry_same_request");
    expect(paymentPhase(paid({ settledAt: new Date(NOW - 24 * HOUR - 1) }), NOW, 24).next).toBe("none");
    expect(paymentPhase(paid(), NOW, 0)).toEqual({ phase: "paid", next: "none" });
  });

  it("a proof that binds no request (x402 v1, a keyless credit draw) or a request that is not a read never replays", () => {
    expect(paymentPhase(paid({ fromChallenge: false }), NOW, 24).next).toBe("none");
    expect(paymentPhase(paid({ fromChallenge: false, idempotencyKeyed: true }), NOW, 24).next).toBe("retry_same_request");
    expect(paymentPhase(paid({ method: "POST" }), NOW, 24).next).toBe("none");
    expect(paymentPhase(paid({ method: "HEAD" }), NOW, 24).next).toBe("retry_same_request");
  });

  it("a purchase's retry answers its grant at any time; a checkout paid and not delivered yet is delivered whatever the window", () => {
    expect(paymentPhase(paid({ method: "POST", purchase: true, settledAt: new Date(NOW - 90 * 24 * HOUR) }), NOW, 24).next).toBe("retry_same_request");
    expect(paymentPhase(paid({ status: "settled", settlement: null, settledAt: new Date(NOW - 30 * HOUR) }), NOW, 0)).toEqual({
      phase: "paid",
      next: "retry_same_request",
    });
    // A wallet payment the reconciler settled (its outbox row) after the instance died: a replay, within the window.
    expect(paymentPhase(paid({ status: "settled", settledAt: new Date(NOW - 30 * HOUR) }), NOW, 24).next).toBe("none");
  });

  it("held: in progress until the charge is decided, then settlement pending; failed: unpaid delivery only if delivered first", () => {
    const held = paid({ status: "verified", settledAt: null, settlement: null });
    expect(paymentPhase(held, NOW, 24)).toEqual({ phase: "in_progress", next: "wait" });
    expect(paymentPhase({ ...held, settlement: { status: "pending", deliveredFirst: false } }, NOW, 24)).toEqual({ phase: "settlement_pending", next: "wait" });
    expect(paymentPhase({ ...held, settlement: { status: "pending", deliveredFirst: true } }, NOW, 24)).toEqual({ phase: "settlement_pending", next: "wait" });
    const failed = paid({ status: "failed", failureReason: "insufficient_funds", settledAt: null });
    expect(paymentPhase({ ...failed, settlement: { status: "failed", deliveredFirst: true } }, NOW, 24)).toEqual({ phase: "unpaid_delivery", next: "none" });
    expect(paymentPhase({ ...failed, settlement: { status: "failed", deliveredFirst: false } }, NOW, 24)).toEqual({ phase: "failed", next: "pay_again" });
  });

  it("released: expired for a checkout that closed unpaid, released otherwise", () => {
    expect(paymentPhase(paid({ status: "released", failureReason: "checkout_expired" }), NOW, 24)).toEqual({ phase: "expired", next: "pay_again" });
    expect(paymentPhase(paid({ status: "released", failureReason: "upstream_error" }), NOW, 24)).toEqual({ phase: "released", next: "pay_again" });
    expect(paymentPhase(paid({ status: "incomplete" }), NOW, 24)).toEqual({ phase: "in_progress", next: "wait" });
    expect(paymentPhase(paid({ status: "refunded" }), NOW, 24)).toEqual({ phase: "refunded", next: "pay_again" });
  });

  it("knows an Idempotency-Key's lock from a draw's own", () => {
    expect(isIdempotencyLock("credits:idem:agt_1:ab12")).toBe(true);
    expect(isIdempotencyLock("credits:pay_1")).toBe(false);
    expect(isIdempotencyLock(null)).toBe(false);
  });
});
