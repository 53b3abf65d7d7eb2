// The one pipeline every paid entry point runs (a data call, a plan purchase or top-up, the $0 quote; an MCP tool call
// next), for every rail alike:
//   price the call -> which rail's proof it carries (the registry) -> rate limits (docs/rate-limits.md)
//   -> none: the 402, every rail's offer | malformed: refused | a proof: accept -> deliver -> charge or release
//   -> the outcome, a value, rendered by the entry point into its transport's shape.
// Each entry point supplies only what differs: how it prices the call (and what delivering means), where its proofs
// are read from (HTTP headers; MCP `_meta` adapted to Headers), and how an outcome is rendered. Rate limits and the
// funnel's refusal facts happen here, once, for all of them (ARCHITECTURE.md, "Decisions": purchases are limited and
// recorded like calls).
// Server-Timing on paid answers splits the time into the upstream, the chain (RPC round trips, receipt waits) and
// the gateway's own work (everything else), and says how much of the own work was waiting on PostgreSQL (`db`).
import { holdBudget } from "../budgets/hold-budget";
import { recordPaymentRefusal } from "../analytics/record-payment-refusal";
import { env } from "../env";
import { AppError, isAppError } from "../errors";
import { chainMsSoFar, dbMsSoFar } from "../lib/request-timing";
import type { ChallengeOptions } from "../payments/create-challenge";
import type { PaidCall } from "../payments/paid-call";
import { walletProofRefused } from "../payments/proof-refused";
import { readPaymentProof, type PaymentProof } from "../payments/rails";
import type { Rail } from "../payments/rails/rail";
import type { OutcomeMeta, PaidOutcome } from "./paid-outcome";
import { rateLimitError, rateLimits } from "../rate-limits/rate-limit";
import { issueChallenge } from "./issue-challenge";
import { admitPaidCall } from "../controls/admit-paid-call";
import { servePaidCall, type Delivery } from "./serve-paid-call";

export type Priced =
  /** Free: served with no proof asked (the client's budget still counts it: docs/rate-limits.md). */
  | { type: "free"; sellerId: string; operationKey: string; delivery: Delivery }
  /** Paid: a proof on any rail buys the delivery. `challenge`: what this entry point's 402 says beyond the price. */
  | { type: "paid"; call: PaidCall; delivery: Delivery; challenge?: ChallengeOptions }
  /** A $0 wallet proof proves who calls (the free quote): verified, never held or charged. */
  | { type: "wallet_proof"; call: PaidCall; challenge?: ChallengeOptions };

export type PaidEntry<R> = {
  /** Where the payment proofs are read from: the request's headers, or an MCP call's `_meta` adapted to Headers. */
  proofs: Headers;
  /** A proof the entry point already found malformed where it read it (an MCP `_meta` value), refused as one read here. */
  malformed?: Extract<PaymentProof, { type: "malformed" }>;
  /** The client's address (RouteContext.clientAddress): whose budget a request without a valid proof or bearer spends. */
  client: string | null;
  /** Match, validate and price the call. What it throws (404, 400, 401, 409) is answered before any payment. */
  price(): Promise<Priced>;
  /** The outcome in this entry point's transport. */
  render(outcome: PaidOutcome, meta: OutcomeMeta): R | Promise<R>;
  /**
   * A proof that already bought this entry point's answer (`payment_consumed`): its first answer again, or null to
   * refuse it (a purchase's replay answers its grant, to the buyer only).
   */
  replay?(paymentId: string): Promise<R | null>;
};

const NO_PROOF: PaymentProof = { type: "none" };

export async function runPaidCall<R>(entry: PaidEntry<R>): Promise<R> {
  const t0 = performance.now();
  const priced = await entry.price();
  const sellerId = priced.type === "free" ? priced.sellerId : priced.call.sellerId;
  const anonymous = () => rateLimits.admitAnonymous({ sellerId, client: entry.client });
  let proof = NO_PROOF;
  if (priced.type !== "free")
    try {
      proof = entry.malformed ?? readPaymentProof(entry.proofs);
    } catch (e) {
      // Refused before any rail looked at it (two rails' proofs at once, a combined Authorization): a funnel fact too,
      // and anonymous traffic (no proof of it was valid).
      if (!isAppError(e)) throw e;
      const v = await anonymous();
      return refuse(entry, priced, null, v.type === "limited" ? rateLimitError(v) : e, false);
    }
  // Who pays, where the proof's rail can tell (a wallet once its signature recovers; a bearer's credential): that
  // payer's budget, never the client's, so no amount of anonymous traffic from anywhere refuses a valid proof.
  // (Finding a wallet costs a signature recovery, which limits turned off must not spend on the paid path.)
  const payer = proof.type === "proof" && proof.rail.payer && !env().RATE_LIMIT_DISABLED ? await proof.rail.payer(proof.proof) : null;
  const verdict = payer ? await rateLimits.admitPayer({ sellerId, payer }) : await anonymous();
  if (verdict.type === "limited") {
    const error = rateLimitError(verdict);
    if (priced.type === "free") throw error;
    // Only a request that carried a proof is a refused payment (a funnel fact); an unpaid one over the limit is just refused.
    if (proof.type === "none") return entry.render({ type: "refused", call: priced.call, rail: null, error }, {});
    return refuse(entry, priced, proof.rail, error, false);
  }
  // The seller's ceiling counts only requests that end holding a payment: anything else gives its unit back, and a
  // proof that turned out invalid is anonymous traffic after all (signing throwaway proofs costs an attacker nothing).
  const admitted = payer ? verdict : null;
  const unpaid = async (invalid: boolean) => {
    if (!admitted) return;
    admitted.refund();
    if (invalid) await anonymous();
  };
  if (priced.type === "free") return serveFree(entry, priced.delivery);
  const { call } = priced;
  if (proof.type === "none") return entry.render({ type: "challenge", call, challenge: await issueChallenge(call, priced.challenge) }, {});
  if (proof.type === "malformed") return refuse(entry, priced, proof.rail, proof.error, proof.freshChallenge);
  if (priced.type === "wallet_proof") {
    // A $0 proof earns nothing: never the seller's ceiling.
    return proveWallet(entry, priced, proof.rail, proof.proof, unpaid);
  }
  // The person's controls (freeze, revoke, wallet caps, approval), before any rail accepts: a refusal charged nothing.
  const admission = await admitPaidCall(call, entry.proofs, proof.rail, proof.proof);
  if (admission.type === "refused") {
    await unpaid(false);
    return refuse(entry, priced, proof.rail, admission.error, false);
  }

  const phases: string[] = [];
  let mark = performance.now();
  let upstreamMs = 0;
  const timings = {
    lap(name: string) {
      const now = performance.now();
      if (name === "upstream") upstreamMs = now - mark;
      phases.push(`${name};dur=${(now - mark).toFixed(1)}`);
      mark = now;
    },
  };
  // The person's budgets, reserved before any rail is asked (server/budgets): past a limit, refused with nothing charged.
  const budget = await holdBudget(call, entry.proofs, admission.budget);
  if (budget.type === "exceeded") {
    await admission.end(false);
    return unpaid(false).then(() => refuse(entry, priced, proof.rail, budget.error, false));
  }
  const served = await budget.serve(() => servePaidCall(call, proof.rail, proof.proof, priced.delivery, timings, { replayOnly: admission.replayOnly }));
  await admission.end(served.type === "settlement_pending" || (served.type === "charged" && !served.replay));
  if (served.type === "refused") {
    await unpaid(true);
    return refuse(entry, priced, served.rail, served.error, served.freshChallenge);
  }
  // An implicit rail that covers nothing here (no plan for this meter, credit used up): pay-as-you-go, as without it.
  if (served.type === "declined") {
    await unpaid(false);
    const challenge = await issueChallenge(call, { ...priced.challenge, error: served.error, detail: served.detail ?? priced.challenge?.detail });
    return entry.render({ type: "challenge", call, challenge }, {});
  }
  // The signed money did not move: retried from the start, so the rail's fresh offer comes with the answer, as with a refusal.
  if (served.type === "settlement_failed" && served.rail.refusal?.freshChallenge)
    return entry.render({ ...served, challenge: await issueChallenge(call, { ...priced.challenge, refused: served.reason }) }, {});
  const total = performance.now() - t0;
  const chain = chainMsSoFar();
  const own = total - chain - upstreamMs;
  // `db` (statements sent with sql(), the paid path's) is part of `own`: own minus db is the gateway's CPU and waiting.
  const db = dbMsSoFar();
  const serverTiming = [
    ...phases,
    `chain;dur=${chain.toFixed(1)}`,
    `db;dur=${db.toFixed(1)}`,
    `own;dur=${own.toFixed(1)}`,
    `total;dur=${total.toFixed(1)}`,
  ].join(", ");
  return entry.render(served, { serverTiming });
}

type Payable = Exclude<Priced, { type: "free" }>;

/** A free call: no proof asked, nothing held; an upstream that does not answer is the caller's error, not a refusal. */
async function serveFree<R>(entry: PaidEntry<R>, delivery: Delivery): Promise<R> {
  const delivered = await delivery.deliver();
  if (delivered.type === "timeout") throw new AppError("upstream_timeout", { detail: "the upstream did not answer in time" });
  if (delivered.type === "unreachable") throw new AppError("upstream_unavailable", { detail: "the upstream could not be reached" });
  return entry.render({ type: "free", delivered }, {});
}

/**
 * A refusal: recorded for the funnel (never the paid path), with a fresh challenge where the rail answers refusals with
 * one (`fresh` overrides the rail's default for this refusal). A replay of a proof that bought this entry point's
 * answer is answered with it instead, if the entry point keeps one.
 */
async function refuse<R>(entry: PaidEntry<R>, priced: Payable, rail: Rail | null, error: AppError, fresh: boolean | undefined): Promise<R> {
  const { call } = priced;
  const paymentId = error.extra?.payment_id;
  if (entry.replay && error.code === "payment_consumed" && typeof paymentId === "string") {
    const first = await entry.replay(paymentId);
    if (first !== null) return first;
  }
  await recordPaymentRefusal({ sellerId: call.sellerId, rail: rail?.name ?? null, operationKey: call.operationKey, error });
  const challenge =
    rail && (fresh ?? rail.refusal?.freshChallenge) ? await issueChallenge(call, { ...priced.challenge, refused: refusalCause(error) }) : undefined;
  return entry.render({ type: "refused", call, rail, error, challenge }, {});
}

/** Why a proof was refused, in one word for the fresh offer (x402's PaymentRequired `error`). */
export function refusalCause(error: AppError): string {
  const settlement = error.extra?.settlementReason;
  return error.reason ?? (typeof settlement === "string" ? settlement : error.code);
}

/** The $0 quote: the proof's rail checks the signature and binding; nothing is locked, held or charged. */
async function proveWallet<R>(entry: PaidEntry<R>, priced: Payable, rail: Rail, proof: unknown, unpaid: (invalid: boolean) => Promise<void>): Promise<R> {
  const { call } = priced;
  if (!rail.verifyWalletProof) {
    await unpaid(true);
    return refuse(
      entry,
      priced,
      rail,
      walletProofRefused("not_a_wallet_proof", `a ${rail.name} proof cannot prove a wallet; sign the $0 offer of this 402`),
      false,
    );
  }
  try {
    const binding = { sellerId: call.sellerId, method: call.method, path: call.path, payTo: call.payTo, realm: call.realm };
    const { wallet } = await rail.verifyWalletProof(proof, binding);
    await unpaid(false);
    return entry.render({ type: "proven", call, rail, wallet }, {});
  } catch (e) {
    if (!isAppError(e)) throw e;
    await unpaid(true);
    return refuse(entry, priced, rail, e, undefined);
  }
}
