// What a meter's operations sold over a span, per unit price: the price preview's "the last 30 days at each price".
// Live ledger rows of the meter's operations (the daily tables keep no unit price); a preview is a rare action.
import { sql } from "../db/client";
import { utc, type Span } from "./span";

export type PriceHistoryRow = { unitMicros: bigint; kind: "charge" | "refund" | "draw"; entries: number; micros: bigint };

export async function findPriceHistory(sellerId: string, operationKeys: string[], span: Span): Promise<PriceHistoryRow[]> {
  if (operationKeys.length === 0) return [];
  const { rows } = await sql<{ unit_micros: string; kind: "charge" | "refund" | "draw"; n: number; micros: string }>(
    `select (amount_micros / greatest(units, 1))::text as unit_micros, kind, count(*)::int as n, sum(amount_micros)::text as micros
     from ledger_entries
     where seller_id = $1 and operation_key = any($2::text[]) and kind in ('charge', 'refund', 'draw')
       and created_at >= $3::timestamptz at time zone 'UTC' and created_at < $4::timestamptz at time zone 'UTC'
     group by 1, 2`,
    [sellerId, operationKeys, utc(span.start), utc(span.end)],
  );
  return rows.map((r) => ({ unitMicros: BigInt(r.unit_micros), kind: r.kind, entries: r.n, micros: BigInt(r.micros) }));
}
