// A plan-covered call: the agent's bearer names a credential; its credit (or a free included unit of its human) pays
// the call's per-request price. One statement reserves it before the call; the rail captures it after a success and
// releases it after a failure, like a wallet payment's settle and release.
import { createHash } from "node:crypto";
import { env } from "../../../env";
import { AppError } from "../../../errors";
import { newId } from "../../../lib/ids";
import { microsToUsd } from "../../../lib/money";
import type { AgentClaims } from "../../../identity/issue-tokens";
import { paymentStateError, sameRequest } from "../../payment-state";
import { findPaymentByLockKey, type PaymentRow } from "../../payments.queries";
import { replayOf } from "../../replay";
import type { PaidCall } from "../rail";
import { hasCoveringGrant, type DrawResult } from "./credits.queries";
import { reserveDrawBatched } from "./reserve-queue";
import { forgetCoverage, noteCoverage, reservationTurn } from "./coverage-memo";
import { leaseBook } from "./instance-lease-book";
import type { LeaseBook } from "./lease-book";

export type Draw =
  | { type: "reserved"; paymentId: string; amountMicros: bigint; billing: Record<string, string> }
  | { type: "uncovered"; error?: "usage_exhausted"; detail: string }
  | { type: "credential_invalid" }
  /** The Idempotency-Key's draw, charged before for this very request: served again, never drawn again. */
  | { type: "replay"; payment: PaymentRow }
  /** The Idempotency-Key's draw is another request's, still in flight, or ended uncharged. */
  | { type: "refused"; error: AppError };

/**
 * An Idempotency-Key's lock: scoped to the credential (another agent's key never collides), hashed (a key is the
 * client's string, not ours to store as is).
 */
export function idempotencyLockKey(credentialId: string, key: string): string {
  return `credits:idem:${credentialId}:${createHash("sha256").update(key).digest("hex")}`;
}

/** What a draw already made under this key answers to its retry, or null when there is none. */
function answerFor(existing: PaymentRow | null, call: PaidCall): Draw | null {
  if (!existing) return null;
  if (!sameRequest(existing, call))
    return {
      type: "refused",
      error: new AppError("idempotency_key_reused", {
        detail: "this Idempotency-Key was used for another request by this credential; use a new key for a new request",
        extra: { payment_id: existing.id },
      }),
    };
  const replay = replayOf(existing, call, () => true);
  if (replay) return { type: "replay", payment: replay };
  return { type: "refused", error: paymentStateError(existing) };
}

/** The call's price from this instance's lease of the credential's credit (./lease-book.ts), or null: per call. */
async function drawFromLease(book: LeaseBook, call: PaidCall, meterKey: string, credentialId: string, humanId: string | null): Promise<Draw | null> {
  const leased = await book.take({
    sellerId: call.sellerId,
    credentialId,
    humanId,
    meterKey,
    priceMicros: call.amountMicros,
    method: call.method,
    path: call.path,
    query: call.canonicalQuery,
    operationKey: call.operationKey,
    transport: call.transport ?? "http",
  });
  if (!leased) return null;
  const billing = { source: "credit", balance_usd: microsToUsd(leased.balanceMicros) };
  return { type: "reserved", paymentId: leased.paymentId, amountMicros: call.amountMicros, billing };
}

/**
 * `early`: this call's upstream started before its reservation (coverage-memo.ts); it reserves ahead of the others.
 * `idempotencyKey`: the client's key for this call (the Idempotency-Key header): its retries draw once.
 */
export async function drawCredits(
  call: PaidCall,
  agent: AgentClaims,
  opts: { early?: boolean; idempotencyKey?: string; book?: LeaseBook } = {},
): Promise<Draw> {
  if (!call.meterKey) return { type: "uncovered", detail: "this operation has no meter a plan could cover" };
  const lockKey = opts.idempotencyKey ? idempotencyLockKey(agent.sub, opts.idempotencyKey) : null;
  if (lockKey) {
    const answer = answerFor(await findPaymentByLockKey(lockKey), call);
    if (answer) return answer;
  }
  // Only a token issued after the claim names the human (a pre-claim token does not upgrade itself, part 5).
  const humanId = agent.agent_status === "claimed" ? (agent.hum ?? null) : null;
  // Leased credit (README): not for a call with an Idempotency-Key or one that may take a free included unit.
  if (!lockKey && !(humanId !== null && call.includedUnits > 0)) {
    const leased = await drawFromLease(opts.book ?? leaseBook(), call, call.meterKey, agent.sub, humanId);
    if (leased) return leased;
  }
  const done = await reservationTurn(agent.sub, call.meterKey, { early: opts.early ?? false });
  let r: DrawResult;
  try {
    r = await reserveDrawBatched({
      paymentId: newId("pay"),
      sellerId: call.sellerId,
      credentialId: agent.sub,
      humanId,
      method: call.method,
      path: call.path,
      query: call.canonicalQuery,
      operationKey: call.operationKey,
      meterKey: call.meterKey,
      priceMicros: call.amountMicros,
      includedUnits: call.includedUnits,
      leaseSeconds: env().PAYMENT_LEASE_SECONDS,
      lockKey,
      transport: call.transport ?? "http",
    });
    if (r.type === "reserved" && r.source === "credit") noteCoverage(agent.sub, call.meterKey, r.remainingMicros);
    if (r.type !== "reserved") forgetCoverage(agent.sub, call.meterKey);
  } finally {
    done();
  }
  if (r.type === "credential_invalid") return r;
  // A retry with the same key drew at the same moment: its draw answers this one (in progress, most likely).
  if (r.type === "lock_taken")
    return (
      answerFor(await findPaymentByLockKey(lockKey!), call) ?? {
        type: "refused",
        error: new AppError("payment_in_progress", { detail: "a request with this Idempotency-Key is being served; retry shortly" }),
      }
    );
  if (r.type === "reserved")
    return r.source === "included"
      ? { type: "reserved", paymentId: r.paymentId, amountMicros: 0n, billing: { source: "included_units" } }
      : {
          type: "reserved",
          paymentId: r.paymentId,
          amountMicros: call.amountMicros,
          billing: { source: "credit", balance_usd: microsToUsd(r.remainingMicros) },
        };
  // Nothing covered it: say why, for the 402 (only on this path, never on a covered call).
  if (await hasCoveringGrant(call.sellerId, agent.sub, humanId, call.meterKey))
    return {
      type: "uncovered",
      error: "usage_exhausted",
      detail: "your plan's credit does not cover this call any more: top up (POST /extend), or pay this call",
    };
  return {
    type: "uncovered",
    detail:
      "no plan of yours covers this meter; pay this call, or buy a plan that covers it: GET /manifest.json lists the plans (`plans[].meters`, `plans[].purchase.url`)",
  };
}
