// The x402-batch rail's statements on channels and voucher-paid payments (its on-chain bookkeeping: chain.queries.ts). A voucher is spent by ONE statement (spendVoucher): the channel's charged total
// moves from exactly the value the voucher was signed on top of (a compare-and-set, so two instances racing one voucher
// cannot both move it), and the held payment row is written from the 402's signed terms, holding the voucher's lock key
// (channel and ceiling). Capture, release and the claims' bookkeeping are one statement each; payment states are named
// only through payment-state.ts.
import "server-only";
import { sql, UNIQUE_VIOLATION } from "../../../db/client";
import { newId } from "../../../lib/ids";
import { transition } from "../../payment-state";

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

export type RawChannel = Record<string, string | number | Date | null>;

export const CHANNEL_COLUMNS = `id, payer, payer_authorizer, receiver, receiver_authorizer, token, withdraw_delay, salt, balance_micros::text, withdraw_requested_at,
  claimed_micros::text, charged_micros::text, released_micros::text, signed_max_micros::text, signature`;

export function channelOf(r: RawChannel): ChannelRow {
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
