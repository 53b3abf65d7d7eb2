// The x402-batch rail's statements. A voucher is spent by ONE statement (spendVoucher): the channel's charged total
// moves from exactly the value the voucher was signed on top of (a compare-and-set, so two instances racing one voucher
// cannot both move it), and the held payment row is written from the 402's signed terms, holding the voucher's lock key
// (channel and ceiling). Capture, release and the claims' bookkeeping are one statement each; payment states are named
// only through payment-state.ts.
import "server-only";
import { sql, UNIQUE_VIOLATION } from "../../../db/client";
import { newId } from "../../../lib/ids";
import { stateSql, transition } from "../../payment-state";

const LOCK = transition("challenged", "verified");
const RELEASE = transition("verified", "released");
const CAPTURE = transition("verified", "consumed");
export const RAIL = "x402-batch";

export type ChannelRow = {
  id: string;
  payer: string;
  payerAuthorizer: string;
  receiver: string;
  receiverAuthorizer: string;
  token: string;
  withdrawDelay: number;
  salt: string;
  balance: bigint;
  withdrawRequestedAt: Date | null;
  claimed: bigint;
  charged: bigint;
  released: bigint;
  signedMax: bigint;
  signature: string | null;
};

type RawChannel = Record<string, string | number | Date | null>;

const CHANNEL_COLUMNS = `id, payer, payer_authorizer, receiver, receiver_authorizer, token, withdraw_delay, salt, balance_micros::text, withdraw_requested_at,
  claimed_micros::text, charged_micros::text, released_micros::text, signed_max_micros::text, signature`;

function channelOf(r: RawChannel): ChannelRow {
  return {
    id: r.id as string,
    payer: r.payer as string,
    payerAuthorizer: r.payer_authorizer as string,
    receiver: r.receiver as string,
    receiverAuthorizer: r.receiver_authorizer as string,
    token: r.token as string,
    withdrawDelay: Number(r.withdraw_delay),
    salt: r.salt as string,
    balance: BigInt(r.balance_micros as string),
    withdrawRequestedAt: (r.withdraw_requested_at as Date | null) ?? null,
    claimed: BigInt(r.claimed_micros as string),
    charged: BigInt(r.charged_micros as string),
    released: BigInt(r.released_micros as string),
    signedMax: BigInt(r.signed_max_micros as string),
    signature: (r.signature as string | null) ?? null,
  };
}

export async function findChannel(id: string): Promise<ChannelRow | null> {
  const { rows } = await sql<RawChannel>(`select ${CHANNEL_COLUMNS} from batch_channels where id = $1`, [id], "batch_find_channel");
  return rows[0] ? channelOf(rows[0]) : null;
}

export type NewChannel = Omit<ChannelRow, "charged" | "released" | "signedMax" | "signature">;

/**
 * A channel we learn of from the chain (funded by a deposit we relayed, or on its own): inserted with what the chain says,
 * charged from the total already claimed on it (the scheme's baseline after a state loss), else its escrow refreshed.
 * The charged total never moves here: only vouchers, releases and claims move it.
 */
export async function upsertChannel(c: NewChannel): Promise<ChannelRow> {
  const { rows } = await sql<RawChannel>(
    `insert into batch_channels (id, payer, payer_authorizer, receiver, receiver_authorizer, token, withdraw_delay, salt, balance_micros, withdraw_requested_at,
       claimed_micros, charged_micros, signed_max_micros, created_at, updated_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10::timestamptz at time zone 'UTC', $11, $11, $11, now() at time zone 'UTC', now() at time zone 'UTC')
     on conflict (id) do update set balance_micros = excluded.balance_micros, withdraw_requested_at = excluded.withdraw_requested_at,
       claimed_micros = greatest(batch_channels.claimed_micros, excluded.claimed_micros), updated_at = excluded.updated_at
     returning ${CHANNEL_COLUMNS}`,
    [
      c.id,
      c.payer,
      c.payerAuthorizer,
      c.receiver,
      c.receiverAuthorizer,
      c.token,
      c.withdrawDelay,
      c.salt,
      c.balance,
      c.withdrawRequestedAt?.toISOString() ?? null,
      c.claimed,
    ],
  );
  return channelOf(rows[0]!);
}

/** The chain's view of a known channel (a deposit, a refund or a withdrawal seen in its logs). */
export async function mirrorChannel(id: string, onChain: { balance: bigint; totalClaimed: bigint; withdrawRequestedAt: Date | null }): Promise<void> {
  await sql(
    `update batch_channels set balance_micros = $2, withdraw_requested_at = $3::timestamptz at time zone 'UTC',
       claimed_micros = greatest(claimed_micros, $4::bigint), updated_at = now() at time zone 'UTC'
     where id = $1`,
    [id, onChain.balance, onChain.withdrawRequestedAt?.toISOString() ?? null, onChain.totalClaimed],
  );
}

export type VoucherSpend = {
  paymentId: string;
  sellerId: string;
  channelId: string;
  /** The call's price: the step from the charged total the voucher was signed on. */
  amount: bigint;
  ceiling: bigint;
  signature: string;
  lockKey: string;
  terms: { method: string; path: string; query: string; operationKey: string; meterKey: string | null; expiresAt: number };
  payTo: string;
  network: string;
  asset: string;
  transport: "http" | "mcp";
  leaseSeconds: number;
};

export type SpendResult =
  | { type: "spent"; payer: string; balance: bigint; claimed: bigint }
  /** The channel did not move: its charged total is not the voucher's base, it lacks escrow, or its payer is withdrawing. */
  | { type: "not_spent" }
  /** The 402's payment id is already a payment (another proof paid it). */
  | { type: "payment_taken" }
  /** The voucher's lock is held (the same voucher, in flight or spent). */
  | { type: "voucher_taken" };

/**
 * The spend, in one round trip: the channel's charged total moves from `ceiling - amount` to `ceiling` (and the latest
 * voucher is kept, so a claim can carry it), only within its escrow and while its payer is not withdrawing; the held
 * payment row is written from the 402's terms. A unique violation (the payment id, the voucher's lock) undoes both.
 */
export async function spendVoucher(s: VoucherSpend): Promise<SpendResult> {
  try {
    const { rows } = await sql<{ payer: string; balance: string; claimed: string }>(
      `with ch as (
         update batch_channels set charged_micros = $5::bigint, signed_max_micros = greatest(signed_max_micros, $5::bigint),
           signature = case when $5::bigint >= signed_max_micros then $6 else signature end, vouchers = vouchers + 1,
           unclaimed_since = coalesce(unclaimed_since, now() at time zone 'UTC'), updated_at = now() at time zone 'UTC'
         where id = $4 and charged_micros = $5::bigint - $3::bigint and $5::bigint <= balance_micros and withdraw_requested_at is null
         returning payer, balance_micros, claimed_micros
       ), p as (
         insert into payments (id, seller_id, status, from_challenge, method, path, query, operation_key, meter_key, amount_micros, network, asset, pay_to,
           expires_at, created_at, updated_at, transport, rail, lock_key, payer, rail_data, verified_at, locked_until)
         select $1, $2, ${LOCK.set}, true, $7, $8, $9, $10, $11, $3, $12, $13, $14, to_timestamp($15) at time zone 'UTC', now() at time zone 'UTC',
           now() at time zone 'UTC', $16, '${RAIL}', $17, ch.payer, jsonb_build_object('channel', $4::text, 'cumulative', $5::text), now() at time zone 'UTC',
           (now() at time zone 'UTC') + make_interval(secs => $18)
         from ch
         returning id
       )
       select ch.payer, ch.balance_micros::text as balance, ch.claimed_micros::text as claimed from ch, p`,
      [
        s.paymentId,
        s.sellerId,
        s.amount,
        s.channelId,
        s.ceiling,
        s.signature,
        s.terms.method,
        s.terms.path,
        s.terms.query,
        s.terms.operationKey,
        s.terms.meterKey,
        s.network,
        s.asset,
        s.payTo,
        s.terms.expiresAt,
        s.transport,
        s.lockKey,
        s.leaseSeconds,
      ],
      "batch_spend_voucher",
    );
    const r = rows[0];
    return r ? { type: "spent", payer: r.payer, balance: BigInt(r.balance), claimed: BigInt(r.claimed) } : { type: "not_spent" };
  } catch (e) {
    const err = e as { code?: string; constraint?: string };
    if (err.code !== UNIQUE_VIOLATION) throw e;
    return err.constraint === "payments_pkey" ? { type: "payment_taken" } : { type: "voucher_taken" };
  }
}

/**
 * verified -> released, and the channel given the price back, in one statement. The usual case (the released call is
 * the channel's latest step, as with a client that waits for each answer): the charged total steps back and the
 * voucher's lock is let go, so the payer signs the same step again. A later voucher already on top: the step stays
 * spent and its price is recorded as released, which claims leave out. The channel row is locked before the payment,
 * in the order spendVoucher takes them.
 */
export async function releaseVoucher(paymentId: string, reason: string, upstreamStatus?: number): Promise<boolean> {
  const { rows } = await sql<{ id: string }>(
    `with target as (
       select id, amount_micros, rail_data->>'channel' as channel, (rail_data->>'cumulative')::bigint as cumulative
       from payments where id = $1 and rail = '${RAIL}' and ${RELEASE.guard()}
     ), c as materialized (
       select b.id, b.charged_micros = t.cumulative as latest from batch_channels b join target t on b.id = t.channel for update of b
     ), p as (
       update payments set status = ${RELEASE.set}, failure_reason = $2, upstream_status = $3, locked_until = null, updated_at = now() at time zone 'UTC',
         lock_key = case when (select latest from c) then payments.lock_key || ':released' else payments.lock_key end
       from target where payments.id = target.id and ${RELEASE.guard("payments.status")}
       returning payments.id
     ), ch as (
       update batch_channels b set charged_micros = case when c.latest then b.charged_micros - t.amount_micros else b.charged_micros end,
         released_micros = case when c.latest then b.released_micros else b.released_micros + t.amount_micros end,
         vouchers = b.vouchers - 1, updated_at = now() at time zone 'UTC'
       from target t, c where b.id = c.id and exists (select 1 from p)
     )
     select id from p`,
    [paymentId, reason, upstreamStatus ?? null],
    "batch_release_voucher",
  );
  return rows.length === 1;
}

/**
 * verified -> consumed for served voucher calls, with their ledger `charge` rows and signed receipts, in one statement
 * for a whole batch. The channel is not touched: its charged total already holds them; claims collect it.
 */
export async function captureVouchers(calls: { paymentId: string; units: number; upstreamStatus: number; receipt: string | null }[]): Promise<number> {
  if (!calls.length) return 0;
  const { rowCount } = await sql(
    `with v as (
       select * from unnest($1::text[], $2::int[], $3::int[], $4::text[], $5::text[]) as v(id, units, status, ledger_id, receipt)
     ), p as (
       update payments set status = ${CAPTURE.set}, settled_at = now() at time zone 'UTC', upstream_status = v.status, locked_until = null,
         receipt = coalesce(v.receipt, payments.receipt), updated_at = now() at time zone 'UTC'
       from v where payments.id = v.id and ${CAPTURE.guard("payments.status")} and payments.rail = '${RAIL}'
       returning payments.id, payments.seller_id, payments.rail, payments.operation_key, payments.payer, payments.meter_key, payments.amount_micros,
         payments.currency, v.units, v.ledger_id
     )
     insert into ledger_entries (id, seller_id, payment_id, kind, rail, operation_key, payer, meter_key, units, amount_micros, currency, created_at)
     select p.ledger_id, p.seller_id, p.id, 'charge', p.rail, p.operation_key, p.payer, p.meter_key, p.units, p.amount_micros, p.currency,
       now() at time zone 'UTC' from p`,
    [calls.map((c) => c.paymentId), calls.map((c) => c.units), calls.map((c) => c.upstreamStatus), calls.map(() => newId("led")), calls.map((c) => c.receipt)],
    "batch_capture_vouchers",
  );
  return rowCount;
}

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

// ---------------------------------------------------------------- figures (the bench, the README)

/** On-chain transactions of this rail since `since`: how many of each kind, their gas, the calls claims covered. */
export async function transactionFigures(since: Date): Promise<{ kind: string; count: number; gasUsed: bigint; calls: number }[]> {
  const { rows } = await sql<{ kind: string; count: number; gas_used: string; calls: number }>(
    `select kind, count(*)::int as count, coalesce(sum(gas_used), 0)::text as gas_used, coalesce(sum(calls), 0)::int as calls from batch_transactions
     where status = 'confirmed' and created_at >= $1::timestamptz at time zone 'UTC' group by kind`,
    [since.toISOString()],
  );
  return rows.map((r) => ({ kind: r.kind, count: Number(r.count), gasUsed: BigInt(r.gas_used), calls: Number(r.calls) }));
}
