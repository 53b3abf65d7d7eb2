// What a payment's phase needs beyond the row itself (./payment-phase.ts): its settlement outbox row and whether it
// bought plan credit. Read by payment id (both tables are keyed by it); a payment with neither answers nulls.
import { sql } from "../db/client";
import type { PhaseFacts } from "./payment-phase";

export async function findPhaseExtras(paymentId: string): Promise<Pick<PhaseFacts, "settlement" | "purchase">> {
  const { rows } = await sql<{ settlement_status: "pending" | "succeeded" | "failed" | null; delivered_first: boolean | null; purchase: boolean }>(
    `select s.status as settlement_status, s.delivered_first, exists (select 1 from plan_purchases pp where pp.payment_id = $1) as purchase
     from (select 1) one left join settlements s on s.payment_id = $1`,
    [paymentId],
    "payments_phase_extras",
  );
  const r = rows[0];
  return {
    settlement: r?.settlement_status ? { status: r.settlement_status, deliveredFirst: r.delivered_first === true } : null,
    purchase: r?.purchase === true,
  };
}
