// Alerts: the person is emailed when a budget's day or month window reaches 80 %, 90 % and 100 % of its limit, once
// per window per threshold (a guarded claim on the budget row: budget-alerts.queries.ts), through the same mailer as
// the claim's sign-in codes (SMTP, or the demo's /outbox). Sent off the paid call's path.
import { sendMail } from "../identity/send-mail";
import { formatUsd } from "../lib/money";
import { dateOnly } from "./budget-windows";
import { claimBudgetAlert } from "./budget-alerts.queries";
import type { CountedBudget } from "./budgets.queries";

export const ALERT_THRESHOLDS = [100, 90, 80] as const;

const pending = new Set<Promise<void>>();

/** The highest threshold `used` has reached of `limit`, or null. */
export function reachedThreshold(used: bigint, limit: bigint | null): number | null {
  if (limit === null || limit <= 0n) return null;
  return ALERT_THRESHOLDS.find((t) => used * 100n >= limit * BigInt(t)) ?? null;
}

async function alertOne(b: CountedBudget, period: "day" | "month"): Promise<void> {
  const [used, limit, start] = period === "day" ? [b.dayUsedMicros, b.perDayMicros, b.dayStart] : [b.monthUsedMicros, b.perMonthMicros, b.monthStart];
  const threshold = reachedThreshold(used, limit);
  if (threshold === null || limit === null) return;
  const claimed = await claimBudgetAlert(b.id, period, threshold, dateOnly(start));
  if (!claimed) return;
  const whose = b.scope === "credential" ? `your agent ${b.subject}` : "all your agents together";
  const window = period === "day" ? `today (UTC day ${dateOnly(start)})` : `this month (UTC, from ${dateOnly(start)})`;
  const what = threshold === 100 ? "reached" : `reached ${threshold} % of`;
  const res = await sendMail({
    to: claimed.email,
    subject: `[${claimed.sellerName}] ${threshold} % of a ${period === "day" ? "daily" : "monthly"} budget spent`,
    text:
      `The spending of ${whose} at ${claimed.sellerName} has ${what} the ${period === "day" ? "daily" : "monthly"} budget you set: ` +
      `${formatUsd(used)} of ${formatUsd(limit)} ${window}.\n\n` +
      (threshold === 100 ? "Calls past the limit are refused (budget_exceeded) until the window resets.\n\n" : "") +
      "You can see the spending and change the budget on your account page (/account).",
  });
  if (res.type === "failed") console.error(`[budgets] alert for ${b.id} not sent: ${res.detail}`);
}

/** Mail what the budgets just confirmed reached, without holding up the call; failures are logged, never thrown. */
export function alertBudgetThresholds(budgets: CountedBudget[]): void {
  for (const b of budgets)
    for (const period of ["day", "month"] as const) {
      const p = alertOne(b, period)
        .catch((e) => console.error(`[budgets] alert for ${b.id}:`, e instanceof Error ? e.message : e))
        .finally(() => pending.delete(p));
      pending.add(p);
    }
}

/** Tests and shutdown: wait for the alerts on their way. */
export async function flushBudgetAlerts(): Promise<void> {
  while (pending.size) await Promise.all([...pending]);
}
