// The 402 for an unpaid priced call: a payment id that carries the challenge's terms, signed (challenge-id.ts), and
// the offer of every rail that can take the price merged into one response (x402's body and PAYMENT-REQUIRED header,
// MPP's WWW-Authenticate challenge, the card rail's `card` block and its stripe challenge from $0.50).
// Nothing is written: an unpaid 402 costs no row (docs/challenges.md). Whichever rail's proof arrives first writes the
// payment row from the id's terms as it locks it; the others can no longer spend it. The funnel counts the 402 in
// memory (analytics/challenge-counts.ts), flushed into a daily table every few seconds.
import { countChallengeIssued } from "../analytics/challenge-counts";
import { env } from "../env";
import { microsToUsd } from "../lib/money";
import { signChallengeId } from "./challenge-id";
import type { PaidCall } from "./paid-call";
import { railsOffering, railsPaying } from "./rails";

export type Challenge = { paymentId: string; body: Record<string, unknown>; headers: Headers };

/** What an entry point's 402 says beyond the price: its detail and reason, the purchase it binds, extra body fields. */
export type ChallengeOptions = {
  detail?: string;
  /** SERVICE.md part 7: the 402's code when a part 7 code says why it is asked (usage_exhausted: the plan's credit ran out). */
  error?: "payment_required" | "usage_exhausted";
  /** SERVICE.md part 7: refines payment_required. */
  reason?: string;
  /** A plan purchase: written with the challenge, credited when its payment is charged. */
  purchase?: { planId: string; kind: "purchase" | "extend" };
  extraBody?: Record<string, unknown>;
  /** The fresh challenge of a refused proof: why it was refused (the reason, settlementReason or code), for the rails' offers. */
  refused?: string;
};

export async function createChallenge(call: PaidCall, opts: ChallengeOptions = {}): Promise<Challenge> {
  const issuedAt = Math.floor(Date.now() / 1000);
  const expiresAt = issuedAt + env().PAYMENT_CHALLENGE_TTL_SECONDS;
  const paymentId = signChallengeId({
    sellerId: call.sellerId,
    method: call.method,
    path: call.path,
    query: call.canonicalQuery,
    amountMicros: call.amountMicros,
    operationKey: call.operationKey,
    meterKey: call.meterKey,
    issuedAt,
    expiresAt,
    credentialId: call.credentialId ?? null,
    purchase: opts.purchase ?? null,
    transport: call.transport ?? "http",
  });
  // The funnel counts one 402 per unpaid call; a refused proof is its own fact (step "proof"), and the offer that comes
  // with its refusal re-offers the same call, so it is not counted as another 402 issued.
  if (opts.refused === undefined) countChallengeIssued(call.sellerId, call.operationKey);
  const offering = railsOffering(call.amountMicros);
  const rails = railsPaying(call);
  const offers = await Promise.all(
    offering.map((o) =>
      o.rail.challenge.offer(call, { paymentId, expiresAt, refused: opts.refused ?? (opts.error === "usage_exhausted" ? opts.error : undefined) }, o.price),
    ),
  );
  // no-transform: a 402 is not compressed (the compression of Next.js and of proxies honour it). It is small, its 2.7 KB of
  // headers are sent as they are anyway, and gzip (with its thread-pool hand-offs) was a sixth of the server's CPU per 402
  // (1.66 against 1.38 ms warm, measured): under a flood of unpaid calls CPU runs out, not bytes (docs/challenges.md).
  const headers = new Headers({ "cache-control": "no-store, no-transform", "svc-payment-id": paymentId });
  let railFields: Record<string, unknown> = {};
  for (const o of offers) {
    railFields = { ...railFields, ...o.body };
    for (const [name, value] of o.headers ?? []) headers.append(name, value);
  }
  // After every rail's own headers: a rail adding to another's document (x402's schemes share PAYMENT-REQUIRED).
  for (const o of offers) for (const a of o.amend ?? []) headers.set(a.header, a.with(headers.get(a.header)));
  const body: Record<string, unknown> = {
    error: opts.error ?? "payment_required",
    ...(opts.reason ? { reason: opts.reason } : {}),
    detail:
      opts.detail ??
      `this call costs ${microsToUsd(call.amountMicros)} USD; pay one of the offers and retry the same request: ${rails.map((r) => r.howToPay).join("; ")}`,
    payment: {
      id: paymentId,
      amount: microsToUsd(call.amountMicros),
      amount_micros: call.amountMicros.toString(),
      currency: "USD",
      method: call.method,
      path: call.path,
      query: call.canonicalQuery,
      operation: call.operationKey,
      meter: call.meterKey,
      service: call.serviceSlug,
      access: call.purpose === "purchase" ? "purchase" : "payg",
      rails: rails.map((r) => r.name),
      expires_at: new Date(expiresAt * 1000).toISOString(),
    },
    ...railFields,
    ...opts.extraBody,
  };
  return { paymentId, body, headers };
}
