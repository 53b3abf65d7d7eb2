// Processor webhook events already handled (processor_events): a replayed event is acknowledged and ignored.
import { db, sql } from "../../../../db/client";

const NOW = "(now() at time zone 'UTC')";

export async function processorEventSeen(id: string): Promise<boolean> {
  return (await db.processorEvent.count({ where: { id } })) > 0;
}

/** Remember a handled event; false if another delivery of it was recorded first. */
export async function recordProcessorEvent(e: { id: string; processor: string; type: string; paymentId: string | null }): Promise<boolean> {
  const { rowCount } = await sql(
    `insert into processor_events (id, processor, type, payment_id, received_at) values ($1, $2, $3, $4, ${NOW}) on conflict (id) do nothing`,
    [e.id, e.processor, e.type, e.paymentId],
  );
  return rowCount === 1;
}
