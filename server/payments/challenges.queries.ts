// A payment's challenge: the row a 402 writes when it must (a plan purchase, a card checkout), and the unsaved row a
// signed challenge id describes (a stateless 402 writes none). Apart from the statements of paid payments
// (payments.queries.ts), each under the size the style asks.
import type { Prisma } from "../db/generated/client";
import { run, statement } from "../db/statement";
import { readChallengeId, type ChallengeTerms } from "./challenge-id";
import { initialStateSql } from "./payment-state";

const utc = (d: Date) => d.toISOString();

export type NewChallenge = {
  id: string;
  sellerId: string;
  method: string;
  path: string;
  query: string;
  operationKey: string;
  meterKey: string | null;
  amountMicros: bigint;
  network: string | null;
  asset: string | null;
  payTo: string | null;
  expiresAt: Date;
  /** The agent credential the payment is for (plan purchases). */
  credentialId?: string | null;
  /** How the call came (paid-call.ts `Transport`); absent: http. */
  transport?: "http" | "mcp";
  /** A plan purchase: what the payment buys, written in the same statement (the grant is made from it when charged). */
  purchase?: { planId: string; kind: "purchase" | "extend" } | null;
};

const CREATE_CHALLENGED = statement(
  `with p as (
     insert into payments (id, seller_id, status, from_challenge, method, path, query, operation_key, meter_key, amount_micros, network, asset, pay_to, credential_id, expires_at, created_at, updated_at, transport)
     values (:id, :seller, ${initialStateSql("challenged")}, true, :method, :path, :query, :operation, :meter, :amount, :network, :asset, :pay_to, :credential,
       :expires_at::timestamptz at time zone 'UTC', now() at time zone 'UTC', now() at time zone 'UTC', :transport)
     returning id
   )
   insert into plan_purchases (payment_id, seller_id, plan_id, credential_id, kind, amount_micros, created_at)
   select p.id, :seller, :plan, :credential, :purchase_kind, :amount, now() at time zone 'UTC' from p where :plan::text is not null`,
  "payments_create_challenged",
);

export async function createChallengedPayment(p: NewChallenge): Promise<void> {
  await run(CREATE_CHALLENGED, {
    id: p.id,
    seller: p.sellerId,
    method: p.method,
    path: p.path,
    query: p.query,
    operation: p.operationKey,
    meter: p.meterKey,
    amount: p.amountMicros,
    network: p.network,
    asset: p.asset,
    pay_to: p.payTo,
    expires_at: utc(p.expiresAt),
    credential: p.credentialId ?? null,
    plan: p.purchase?.planId ?? null,
    purchase_kind: p.purchase?.kind ?? "purchase",
    transport: p.transport ?? "http",
  });
}

/**
 * The terms of a signed challenge id of this seller (docs/challenges.md), or null: an ordinary id, a forged, tampered
 * or truncated one, or another seller's. Expired ones are returned (statusUrl still answers for them).
 */
export function challengeTermsOf(sellerId: string, id: string): { terms: ChallengeTerms; expired: boolean } | null {
  const read = readChallengeId(id);
  return read.type === "challenge" && read.terms.sellerId === sellerId ? { terms: read.terms, expired: read.expired } : null;
}

/**
 * An unpaid challenge as its signed id describes it: what its row said when a 402 wrote one. Never saved; the row is
 * born when something acts on the id (a proof's lock, a checkout, a purchase).
 */
export function challengedRow(id: string, t: ChallengeTerms): Prisma.PaymentGetPayload<object> {
  const issued = new Date(t.issuedAt * 1000);
  return {
    id,
    sellerId: t.sellerId,
    status: "challenged",
    rail: null,
    method: t.method,
    path: t.path,
    query: t.query,
    operationKey: t.operationKey,
    meterKey: t.meterKey,
    amountMicros: t.amountMicros,
    refundedMicros: 0n,
    currency: "USD",
    network: null,
    asset: null,
    payTo: null,
    payer: null,
    lockKey: null,
    fromChallenge: true,
    railData: null,
    expiresAt: new Date(t.expiresAt * 1000),
    lockedUntil: null,
    upstreamStatus: null,
    transaction: null,
    failureReason: null,
    createdAt: issued,
    updatedAt: issued,
    verifiedAt: null,
    settledAt: null,
    receipt: null,
    credentialId: t.credentialId,
    transport: t.transport ?? "http",
  };
}
