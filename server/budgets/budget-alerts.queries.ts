// Claiming a budget alert: one guarded update per threshold, so each threshold of each window is mailed once, whatever
// the number of instances confirming calls at the same moment.
import "server-only";
import { sql } from "../db/client";

/**
 * Record that `threshold` (80, 90, 100) of the budget's day or month window starting `windowStart` is being mailed;
 * the person's email and the credential's label when this call is the first to claim it, null when it was mailed
 * before (or a higher threshold was) in that window.
 */
export async function claimBudgetAlert(
  budgetId: string,
  period: "day" | "month",
  threshold: number,
  windowStart: string,
): Promise<{ email: string; sellerName: string } | null> {
  const [alerted, start] = period === "day" ? ["day_alerted", "day_alerted_start"] : ["month_alerted", "month_alerted_start"];
  const { rows } = await sql<{ email: string; seller_name: string }>(
    `with c as (
       update budgets set ${alerted} = $2, ${start} = $3::date
        where id = $1 and (${start} is distinct from $3::date or ${alerted} < $2)
       returning human_id, seller_id
     )
     select h.email, s.name as seller_name from c join humans h on h.id = c.human_id join sellers s on s.id = c.seller_id`,
    [budgetId, threshold, windowStart],
  );
  return rows[0] ? { email: rows[0].email, sellerName: rows[0].seller_name } : null;
}
