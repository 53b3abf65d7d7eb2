// Delivered answers in PostgreSQL: kept once per payment under the seller's byte allowance, read by a replay, purged
// with the replay window. Plain statements (sql()): keeping one is on the paid path.
import { sql } from "../../db/client";
import { statesSql } from "../payment-state";

export type AnswerToKeep = {
  paymentId: string;
  sellerId: string;
  status: number;
  headers: [string, string][];
  body: Uint8Array | null;
  sizeBytes: number;
  expiresAt: Date;
};

export type NotKeptReason = "too_large" | "seller_full";

/**
 * Keep an answer if the seller's allowance has room for it (the guarded upsert of its usage row and the answer's insert
 * are one statement: both or neither); otherwise write the marker that says it was not kept. `tooLarge`: not even tried.
 * The first answer of a payment stays (a second one is never written).
 */
export async function keepDeliveredAnswer(a: AnswerToKeep, sellerCapBytes: number, tooLarge: boolean): Promise<"kept" | NotKeptReason | "exists"> {
  if (!tooLarge) {
    const { rows } = await sql<{ kept: boolean }>(
      `with room as (
         insert into delivered_answer_usage as u (seller_id, bytes) select $2, $7::bigint where $7::bigint <= $8::bigint
         on conflict (seller_id) do update set bytes = u.bytes + excluded.bytes where u.bytes + excluded.bytes <= $8::bigint
         returning 1
       ), kept as (
         insert into delivered_answers (payment_id, seller_id, status, headers, body, size_bytes, expires_at, created_at)
         select $1, $2, $3, $4::jsonb, $5, $7, $6::timestamp, now() at time zone 'UTC' where exists (select 1 from room)
         on conflict (payment_id) do nothing
         returning 1
       )
       select exists (select 1 from kept) as kept, exists (select 1 from room) as room`,
      [a.paymentId, a.sellerId, a.status, JSON.stringify(a.headers), a.body, a.expiresAt.toISOString(), a.sizeBytes, sellerCapBytes],
      "delivered_answers_keep",
    );
    const row = rows[0] as { kept: boolean; room: boolean } | undefined;
    if (row?.kept) return "kept";
    // Room was taken but the payment had an answer already (never on the paid path: one charge, one answer): give it back.
    if (row?.room) {
      await sql(`update delivered_answer_usage set bytes = greatest(0, bytes - $2::bigint) where seller_id = $1`, [a.sellerId, a.sizeBytes]);
      return "exists";
    }
  }
  const reason: NotKeptReason = tooLarge ? "too_large" : "seller_full";
  await sql(
    `insert into delivered_answers (payment_id, seller_id, status, headers, body, size_bytes, not_kept, expires_at, created_at)
     values ($1, $2, $3, '[]'::jsonb, null, 0, $4, $5::timestamp, now() at time zone 'UTC')
     on conflict (payment_id) do nothing`,
    [a.paymentId, a.sellerId, a.status, reason, a.expiresAt.toISOString()],
  );
  return reason;
}

export type KeptAnswerRow = {
  status: number;
  headers: [string, string][];
  body: Buffer | null;
  not_kept: NotKeptReason | null;
  expired: boolean;
  /** The charge's signed receipt (payments.receipt), kept by the statement that charged. */
  receipt: string | null;
};

/** A payment's kept answer (or its marker), with the receipt its charge kept. */
export async function findDeliveredAnswer(paymentId: string): Promise<KeptAnswerRow | null> {
  const { rows } = await sql<KeptAnswerRow>(
    `select a.status, a.headers, a.body, a.not_kept, a.expires_at <= now() at time zone 'UTC' as expired, p.receipt
     from delivered_answers a join payments p on p.id = a.payment_id where a.payment_id = $1`,
    [paymentId],
    "delivered_answers_find",
  );
  return rows[0] ?? null;
}

/** Whether a payment is being served right now: held (verified, or a paid checkout under its delivery lease) within its lease. */
export async function isPaymentInFlight(paymentId: string): Promise<boolean> {
  const { rows } = await sql<{ busy: boolean }>(
    `select status in ${statesSql(["verified", "settled"])} and locked_until is not null and locked_until > now() at time zone 'UTC' as busy
     from payments where id = $1`,
    [paymentId],
    "delivered_answers_in_flight",
  );
  return rows[0]?.busy ?? false;
}

/** Delete up to `limit` answers past their window and give their bytes back to each seller's allowance, in one statement. */
export async function purgeExpiredAnswers(limit: number): Promise<number> {
  const { rows } = await sql<{ n: string }>(
    `with gone as (
       delete from delivered_answers where payment_id in (
         select payment_id from delivered_answers where expires_at <= now() at time zone 'UTC' order by expires_at limit $1
       ) returning seller_id, size_bytes
     ), freed as (
       update delivered_answer_usage u set bytes = greatest(0, u.bytes - f.bytes)
       from (select seller_id, sum(size_bytes)::bigint as bytes from gone group by seller_id) f where u.seller_id = f.seller_id
       returning 1
     )
     select count(*)::text as n from gone`,
    [limit],
  );
  return Number(rows[0]?.n ?? 0);
}

/** Bytes a seller's kept answers hold now (the console and tests). */
export async function deliveredAnswerBytes(sellerId: string): Promise<bigint> {
  const { rows } = await sql<{ bytes: string }>(`select bytes::text from delivered_answer_usage where seller_id = $1`, [sellerId]);
  return BigInt(rows[0]?.bytes ?? "0");
}
