// A rail's lock on a payment: challenged -> verified under a unique lock key (what the proof spends), the row born
// verified for a proof that answers no challenge of ours, and the lock undone when the proof then fails. Each one
// statement, guarded by the state before it (payment-state.ts), so two proofs or two instances cannot both lock.
import { UNIQUE_VIOLATION } from "../db/client";
import { run, statement } from "../db/statement";
import { newId } from "../lib/ids";
import { challengeTermsOf, type NewChallenge } from "./challenges.queries";
import { initialStateSql, stateSql, transition } from "./payment-state";
import { SIGNED_ID } from "./payments.queries";

const LOCK = transition("challenged", "verified");
const UNLOCK = transition("verified", "challenged");
// The `timestamp(3)` columns hold UTC wall time (as Prisma writes them); raw statements convert explicitly.
const utc = (d: Date) => d.toISOString();

/**
 * What a rail writes when it locks a payment. `network` and `asset`: where the rail settles and in what (a wallet rail's
 * chain and token); left as they were when not given (off-chain rails: none).
 */
export type Lock = {
  rail: string;
  lockKey: string;
  payer: string | null;
  railData: unknown;
  leaseSeconds: number;
  network?: string | null;
  asset?: string | null;
  /** The transport of the call this proof pays: the one delivered (left as the challenge's when not given). */
  transport?: "http" | "mcp";
  /** The seller's payout address of the paying call: written when the lock writes the row (a signed challenge's). */
  payTo?: string | null;
};
export type LockResult = "locked" | "not_lockable" | "lock_taken";

function isUniqueViolation(e: unknown): boolean {
  return (e as { code?: string })?.code === UNIQUE_VIOLATION;
}

/**
 * challenged -> verified for one rail, taking the lock (unique lock_key), in one statement: the payment must still be
 * an unexpired challenge of this seller. Two proofs for one challenge, or one proof twice, cannot both lock. The row
 * takes the paying call's transport: a challenge issued over HTTP may be paid by an MCP tool call (or the reverse), and
 * the payment is the call that delivered.
 * A signed challenge id (docs/challenges.md) has no row yet: the statement inserts it from the signed terms, already
 * verified (with its plan purchase, if it buys one); a second proof for it finds the row (unique id) and takes the
 * guarded update, as a challenge row written by a 402 before stateless challenges does.
 */
/** A lock's parameters, the same in both statements that take one. */
type LockParams = {
  id: string;
  seller: string;
  rail: string;
  lock_key: string;
  payer: string | null;
  rail_data: string;
  lease: number;
  network: string | null;
  asset: string | null;
  transport: string | null;
};

const LOCK_SIGNED_CHALLENGE = statement(
  `with p as (
     insert into payments (id, seller_id, status, from_challenge, method, path, query, operation_key, meter_key, amount_micros, network, asset, pay_to, credential_id,
       expires_at, created_at, updated_at, transport, rail, lock_key, payer, rail_data, verified_at, locked_until)
     values (:id, :seller, ${LOCK.set}, true, :method, :path, :query, :operation, :meter, :amount, :network, :asset, :pay_to, :credential,
       to_timestamp(:expires_at) at time zone 'UTC', now() at time zone 'UTC', now() at time zone 'UTC', coalesce(:transport, :challenge_transport),
       :rail, :lock_key, :payer, :rail_data::jsonb, now() at time zone 'UTC', (now() at time zone 'UTC') + make_interval(secs => :lease))
     on conflict (id) do update set status = ${LOCK.set}, rail = excluded.rail, lock_key = excluded.lock_key, payer = excluded.payer, rail_data = excluded.rail_data,
       network = coalesce(:network, payments.network), asset = coalesce(:asset, payments.asset), transport = coalesce(:transport, payments.transport),
       verified_at = excluded.verified_at, locked_until = excluded.locked_until, updated_at = excluded.updated_at
     where payments.seller_id = :seller and ${LOCK.guard("payments.status")} and payments.expires_at > now() at time zone 'UTC'
     returning id
   ), pp as (
     insert into plan_purchases (payment_id, seller_id, plan_id, credential_id, kind, amount_micros, created_at)
     select p.id, :seller, :plan, :credential, :purchase_kind, :amount, now() at time zone 'UTC' from p where :plan::text is not null
     on conflict (payment_id) do nothing
   )
   select id from p`,
  "payments_lock_signed_challenge",
);

const LOCK_CHALLENGED = statement<LockParams>(
  `update payments set status = ${LOCK.set}, rail = :rail, lock_key = :lock_key, payer = :payer, rail_data = :rail_data::jsonb, network = coalesce(:network, network),
     asset = coalesce(:asset, asset), transport = coalesce(:transport, transport), verified_at = now() at time zone 'UTC',
     locked_until = (now() at time zone 'UTC') + make_interval(secs => :lease), updated_at = now() at time zone 'UTC'
   where id = :id and seller_id = :seller and ${LOCK.guard()} and expires_at > now() at time zone 'UTC'`,
  "payments_lock_challenged",
);

export async function lockChallengedPayment(sellerId: string, id: string, lock: Lock): Promise<LockResult> {
  const signed = challengeTermsOf(sellerId, id);
  if (signed?.expired) return "not_lockable";
  const params: LockParams = {
    id,
    seller: sellerId,
    rail: lock.rail,
    lock_key: lock.lockKey,
    payer: lock.payer,
    rail_data: JSON.stringify(lock.railData),
    lease: lock.leaseSeconds,
    network: lock.network ?? null,
    asset: lock.asset ?? null,
    transport: lock.transport ?? null,
  };
  try {
    if (signed) {
      const t = signed.terms;
      const { rows } = await run<{ id: string }>(LOCK_SIGNED_CHALLENGE, {
        ...params,
        method: t.method,
        path: t.path,
        query: t.query,
        operation: t.operationKey,
        meter: t.meterKey,
        amount: t.amountMicros,
        pay_to: lock.payTo ?? null,
        credential: t.credentialId,
        expires_at: t.expiresAt,
        plan: t.purchase?.planId ?? null,
        purchase_kind: t.purchase?.kind ?? "purchase",
        challenge_transport: t.transport ?? "http",
      });
      return rows.length === 1 ? "locked" : "not_lockable";
    }
    const { rowCount } = await run(LOCK_CHALLENGED, params);
    return rowCount === 1 ? "locked" : "not_lockable";
  } catch (e) {
    if (isUniqueViolation(e)) return "lock_taken";
    throw e;
  }
}

const INSERT_HELD = statement(
  `insert into payments (id, seller_id, status, rail, method, path, query, operation_key, meter_key, amount_micros, network, asset, pay_to, payer, lock_key, rail_data,
     expires_at, verified_at, locked_until, created_at, updated_at, transport)
   values (:id, :seller, ${initialStateSql("verified")}, :rail, :method, :path, :query, :operation, :meter, :amount, :network, :asset, :pay_to, :payer, :lock_key,
     :rail_data::jsonb, :expires_at::timestamptz at time zone 'UTC', now() at time zone 'UTC', (now() at time zone 'UTC') + make_interval(secs => :lease),
     now() at time zone 'UTC', now() at time zone 'UTC', :transport)`,
  "payments_insert_held",
);

/** A proof that answers no challenge of ours (x402 v1 clients): the payment row is born verified, holding the lock. */
export async function insertHeldPayment(
  p: Omit<NewChallenge, "id" | "network" | "asset"> & Lock,
): Promise<{ result: "locked"; id: string } | { result: "lock_taken" }> {
  const id = newId("pay");
  try {
    await run(INSERT_HELD, {
      id,
      seller: p.sellerId,
      rail: p.rail,
      method: p.method,
      path: p.path,
      query: p.query,
      operation: p.operationKey,
      meter: p.meterKey,
      amount: p.amountMicros,
      network: p.network ?? null,
      asset: p.asset ?? null,
      pay_to: p.payTo,
      payer: p.payer,
      lock_key: p.lockKey,
      rail_data: JSON.stringify(p.railData),
      expires_at: utc(p.expiresAt),
      lease: p.leaseSeconds,
      transport: p.transport ?? "http",
    });
    return { result: "locked", id };
  } catch (e) {
    if (isUniqueViolation(e)) return { result: "lock_taken" };
    throw e;
  }
}

/**
 * Undo a lock taken while its proof was still being verified, once the proof failed: a challenge goes back to
 * `challenged` (the agent may answer it with another proof, or this one once it can pay), a row born held (x402 v1)
 * is deleted (it never was a payment), and so is one the lock wrote for a signed challenge id (the id answers
 * `challenged` again by itself). Guarded by the lock key and the state, so only the lock this request took.
 */
export async function unlockUnverifiedPayment(id: string, lockKey: string): Promise<void> {
  await run(UNLOCK_UNVERIFIED, { id, lock_key: lockKey });
}

const UNLOCK_UNVERIFIED = statement<{ id: string; lock_key: string }>(
  `with born as (
       delete from payments where id = :id and lock_key = :lock_key and status = ${stateSql("verified")} and (not from_challenge or ${SIGNED_ID})
         and not exists (select 1 from settlements s where s.payment_id = payments.id)
     )
     update payments set status = ${UNLOCK.set}, rail = null, lock_key = null, payer = null, rail_data = null, verified_at = null, locked_until = null,
       updated_at = now() at time zone 'UTC'
     where id = :id and lock_key = :lock_key and ${UNLOCK.guard()} and from_challenge and not ${SIGNED_ID} and not exists (select 1 from settlements s where s.payment_id = payments.id)`,
  "payments_unlock_unverified",
);
