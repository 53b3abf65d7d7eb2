// Paid calls per transport (HTTP API or MCP tool call) over a span, for the overview's and the funnel's split. Read
// from the payment rows a proof acted on (rail set), which are kept (only unpaid challenges are deleted): live rows
// over the whole span, an index-only scan of the covering index (seller_id, created_at) INCLUDE (status, rail,
// transport, ...). The daily rollups carry no transport, so the split does not read them.
import { sql } from "../db/client";
import { stateSql } from "../payments/payment-state";
import { utc, type Span } from "./span";

export type TransportGroup = { transport: string; rail: string; operationKey: string; status: string; count: number; amountMicros: bigint };

export async function groupPaymentsByTransport(sellerId: string, span: Span): Promise<TransportGroup[]> {
  const { rows } = await sql<{ transport: string; rail: string; operation_key: string; status: string; n: number; micros: string }>(
    `select transport, rail, operation_key, status::text as status, count(*)::int as n, coalesce(sum(amount_micros), 0)::text as micros
     from payments
     where seller_id = $1 and created_at >= $2::timestamptz at time zone 'UTC' and created_at < $3::timestamptz at time zone 'UTC'
       and rail is not null and status <> ${stateSql("challenged")}
     group by 1, 2, 3, 4`,
    [sellerId, utc(span.start), utc(span.end)],
  );
  return rows.map((r) => ({
    transport: r.transport,
    rail: r.rail,
    operationKey: r.operation_key,
    status: r.status,
    count: r.n,
    amountMicros: BigInt(r.micros),
  }));
}
