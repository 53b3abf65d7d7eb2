// The x402-batch rail's on-chain bookkeeping: the deposits it relays (one row per authorization, leased to the request
// relaying it), the claims (a pending row is the claim pass's outbox and its lease: one at a time across instances),
// how far it has read the settlement contract's logs, and the figures of what it sent.
import "server-only";
import { sql, UNIQUE_VIOLATION } from "../../../db/client";
import { newId } from "../../../lib/ids";
import { stateSql } from "../../payment-state";
import { channelOf, CHANNEL_COLUMNS, RAIL, type ChannelRow, type RawChannel } from "./batch.queries";

// ---------------------------------------------------------------- deposits relayed on chain

/** `mine`: this caller relays it now; `confirmed`: it is on chain already; `pending`: another request is relaying it. */
export type DepositLock = "mine" | "confirmed" | "pending";

/**
 * Take the relay of one deposit authorization (its id is the authorization's nonce, unique on chain): a row leased to
 * this caller, or the state another left it in. A lease run out (the relaying instance died) is taken over.
 */
export async function lockDeposit(id: string, payload: unknown, amount: bigint, leaseSeconds: number): Promise<DepositLock> {
  const { rows } = await sql<{ state: string }>(
    `with ins as (
       insert into batch_transactions (id, kind, status, payload, amount_micros, lease_until, attempts, created_at, updated_at)
       values ($1, 'deposit', 'pending', $2::jsonb, $3, (now() at time zone 'UTC') + make_interval(secs => $4), 1, now() at time zone 'UTC', now() at time zone 'UTC')
       on conflict (id) do nothing
       returning 'mine'::text as state
     ), up as (
       update batch_transactions set lease_until = (now() at time zone 'UTC') + make_interval(secs => $4), attempts = attempts + 1, updated_at = now() at time zone 'UTC'
       where id = $1 and status = 'pending' and lease_until < now() at time zone 'UTC' and not exists (select 1 from ins)
       returning 'mine'::text as state
     )
     select coalesce((select state from ins), (select state from up), (select status from batch_transactions where id = $1), 'pending') as state`,
    [id, JSON.stringify(payload), amount, leaseSeconds],
  );
  return rows[0]!.state as DepositLock;
}

export async function confirmDeposit(id: string, tx: { transaction: string | null; gasUsed?: bigint; gasCostWei?: bigint }): Promise<void> {
  await sql(
    `update batch_transactions set status = 'confirmed', transaction = $2, gas_used = $3, gas_cost_wei = $4::numeric, lease_until = null,
       confirmed_at = now() at time zone 'UTC', updated_at = now() at time zone 'UTC'
     where id = $1 and status = 'pending'`,
    [id, tx.transaction, tx.gasUsed ?? null, tx.gasCostWei?.toString() ?? null],
  );
}

/** A relay that did not happen (the chain refused the authorization): gone, so the payer may send it again once it can pay. */
export async function dropDeposit(id: string): Promise<void> {
  await sql(`delete from batch_transactions where id = $1 and kind = 'deposit' and status = 'pending'`, [id]);
}

// ---------------------------------------------------------------- claims

export type ClaimCandidate = {
  channel: ChannelRow;
  /** Price of its calls still held (verified): charged, not yet earned, never claimed. */
  heldMicros: bigint;
  heldCalls: number;
  vouchers: number;
  claimedVouchers: number;
  unclaimedSince: Date | null;
};

/**
 * Channels with earned value beyond what their claims reached: charged, less what was released after a later voucher,
 * less what is still held. A table scan by design (one row per channel; see the schema).
 */
export async function claimCandidates(limit: number, receivers: string[] | null = null): Promise<ClaimCandidate[]> {
  const { rows } = await sql<
    RawChannel & { held_micros: string; held_calls: number; vouchers: number; claimed_vouchers: number; unclaimed_since: Date | null }
  >(
    `select ${CHANNEL_COLUMNS}, coalesce(h.micros, 0)::text as held_micros, coalesce(h.calls, 0)::int as held_calls, c.vouchers, c.claimed_vouchers, c.unclaimed_since
     from batch_channels c
     left join (
       select rail_data->>'channel' as channel, sum(amount_micros) as micros, count(*) as calls from payments
       where status = ${stateSql("verified")} and rail = '${RAIL}' group by 1
     ) h on h.channel = c.id
     where c.signature is not null and c.charged_micros - c.released_micros - coalesce(h.micros, 0) > c.claimed_micros
       and ($2::text[] is null or c.receiver = any($2::text[]))
     order by c.withdraw_requested_at nulls last, c.unclaimed_since nulls last
     limit $1`,
    [limit, receivers],
  );
  return rows.map((r) => ({
    channel: channelOf(r),
    heldMicros: BigInt(r.held_micros),
    heldCalls: Number(r.held_calls),
    vouchers: Number(r.vouchers),
    claimedVouchers: Number(r.claimed_vouchers),
    unclaimedSince: r.unclaimed_since,
  }));
}

export type PendingClaim = {
  id: string;
  payload: { rows: StoredClaimRow[] };
  calls: number;
  transaction: string | null;
  leaseUntil: Date | null;
  attempts: number;
};
/** A claim row as the outbox keeps it: enough to send the same claim again. Amounts as decimal strings. */
export type StoredClaimRow = { channel: string; config: Record<string, string | number>; ceiling: string; signature: string; total: string; vouchers: number };

/** The claim in flight, if any (at most one: the partial unique index on pending claims). */
export async function pendingClaim(): Promise<PendingClaim | null> {
  const { rows } = await sql<{
    id: string;
    payload: PendingClaim["payload"];
    calls: number;
    transaction: string | null;
    lease_until: Date | null;
    attempts: number;
  }>(`select id, payload, calls, transaction, lease_until, attempts from batch_transactions where kind = 'claim' and status = 'pending'`);
  const r = rows[0];
  return r ? { id: r.id, payload: r.payload, calls: r.calls, transaction: r.transaction, leaseUntil: r.lease_until, attempts: r.attempts } : null;
}

/** The decision to claim, durable before anything is signed: the pending row, leased to this caller. Null: one is pending. */
export async function openClaim(rows: StoredClaimRow[], calls: number, amount: bigint, leaseSeconds: number): Promise<string | null> {
  const id = newId("btx");
  try {
    await sql(
      `insert into batch_transactions (id, kind, status, payload, calls, amount_micros, lease_until, attempts, created_at, updated_at)
       values ($1, 'claim', 'pending', $2::jsonb, $3, $4, (now() at time zone 'UTC') + make_interval(secs => $5), 1, now() at time zone 'UTC', now() at time zone 'UTC')`,
      [id, JSON.stringify({ rows }), calls, amount, leaseSeconds],
    );
    return id;
  } catch (e) {
    if ((e as { code?: string }).code === UNIQUE_VIOLATION) return null;
    throw e;
  }
}

/** Take over a pending claim whose lease ran out (the instance sending it stopped). */
export async function takeOverClaim(id: string, leaseSeconds: number): Promise<boolean> {
  const { rowCount } = await sql(
    `update batch_transactions set lease_until = (now() at time zone 'UTC') + make_interval(secs => $2), attempts = attempts + 1, updated_at = now() at time zone 'UTC'
     where id = $1 and status = 'pending' and (lease_until is null or lease_until < now() at time zone 'UTC')`,
    [id, leaseSeconds],
  );
  return rowCount === 1;
}

/** The claim's transaction, signed and about to be sent: kept first, so whoever resumes after a crash looks for it on chain. */
export async function recordClaimTransaction(id: string, transaction: string): Promise<void> {
  await sql(`update batch_transactions set transaction = $2, updated_at = now() at time zone 'UTC' where id = $1 and status = 'pending'`, [id, transaction]);
}

/** The claim landed: its row confirmed and every channel's claimed total raised to what it reached, in one statement. */
export async function confirmClaim(id: string, tx: { transaction: string; gasUsed?: bigint; gasCostWei?: bigint }): Promise<boolean> {
  const { rows } = await sql<{ id: string }>(
    `with t as (
       update batch_transactions set status = 'confirmed', transaction = $2, gas_used = $3, gas_cost_wei = $4::numeric, lease_until = null,
         confirmed_at = now() at time zone 'UTC', updated_at = now() at time zone 'UTC'
       where id = $1 and status = 'pending'
       returning id, payload
     ), r as (
       select e->>'channel' as channel, (e->>'total')::bigint as total, (e->>'vouchers')::int as vouchers from t, jsonb_array_elements(t.payload->'rows') e
     ), ch as (
       update batch_channels b set claimed_micros = greatest(b.claimed_micros, r.total), claimed_vouchers = greatest(b.claimed_vouchers, r.vouchers),
         unclaimed_since = case when b.charged_micros - b.released_micros > r.total then now() at time zone 'UTC' else null end, updated_at = now() at time zone 'UTC'
       from r where b.id = r.channel
     )
     select id from t`,
    [id, tx.transaction, tx.gasUsed ?? null, tx.gasCostWei?.toString() ?? null],
  );
  return rows.length === 1;
}

/** The claim will not land as built (it reverted, or could not be simulated): closed, so the next pass builds a new one. */
export async function failClaim(id: string, error: string, transaction?: string): Promise<void> {
  await sql(
    `update batch_transactions set status = 'dropped', last_error = $2, transaction = coalesce($3, transaction), lease_until = null, updated_at = now() at time zone 'UTC'
     where id = $1 and status = 'pending'`,
    [id, error.slice(0, 500), transaction ?? null],
  );
}

/** A transient failure: the claim stays pending, retried by whoever holds it after its lease. */
export async function retryClaimLater(id: string, error: string, retryInSeconds: number): Promise<void> {
  await sql(
    `update batch_transactions set last_error = $2, lease_until = (now() at time zone 'UTC') + make_interval(secs => $3), updated_at = now() at time zone 'UTC'
     where id = $1 and status = 'pending'`,
    [id, error.slice(0, 500), retryInSeconds],
  );
}

// ---------------------------------------------------------------- the chain's logs

export async function chainCursor(): Promise<bigint | null> {
  const { rows } = await sql<{ last_block: string }>(`select last_block::text from batch_chain_cursor where id = 1`);
  return rows[0] ? BigInt(rows[0].last_block) : null;
}

export async function advanceCursor(block: bigint): Promise<void> {
  await sql(
    `insert into batch_chain_cursor (id, last_block, updated_at) values (1, $1, now() at time zone 'UTC')
     on conflict (id) do update set last_block = greatest(batch_chain_cursor.last_block, excluded.last_block), updated_at = excluded.updated_at`,
    [block],
  );
}

/** Which of these channel ids are channels of ours. */
export async function knownChannels(ids: string[]): Promise<string[]> {
  if (!ids.length) return [];
  const { rows } = await sql<{ id: string }>(`select id from batch_channels where id = any($1::text[])`, [ids]);
  return rows.map((r) => r.id);
}
