// The person's side of budgets: their limits read and written. Only the person who claimed a credential sets its
// budget; the person budget is theirs alone.
import "server-only";
import { db, sql } from "../db/client";

export type BudgetLimits = { perCallMicros: bigint | null; perDayMicros: bigint | null; perMonthMicros: bigint | null };

export type BudgetView = BudgetLimits & {
  id: string;
  scope: "credential" | "person";
  subject: string;
  dayStart: Date;
  dayUsedMicros: bigint;
  monthStart: Date;
  monthUsedMicros: bigint;
};

/** True when `credentialId` is a live credential at this seller that `humanId` claimed. */
export async function isClaimedBy(sellerId: string, credentialId: string, humanId: string): Promise<boolean> {
  const row = await db.agentCredential.findFirst({
    where: { id: credentialId, sellerId, humanId, status: "claimed", revokedAt: null },
    select: { id: true },
  });
  return row !== null;
}

/**
 * Create or change a budget's limits. The counters stay: a lower limit than what the window already spent refuses the
 * next call at once; a new budget starts counting from now.
 */
export async function upsertBudget(b: {
  id: string;
  sellerId: string;
  humanId: string;
  scope: "credential" | "person";
  subject: string;
  limits: BudgetLimits;
  day: string;
  month: string;
}): Promise<void> {
  const l = b.limits;
  const s = (v: bigint | null) => (v === null ? null : v.toString());
  await sql(
    `insert into budgets (id, seller_id, scope, subject, human_id, per_call_micros, per_day_micros, per_month_micros, day_start, month_start)
     values ($1, $2, $3, $4, $5, $6::bigint, $7::bigint, $8::bigint, $9::date, $10::date)
     on conflict (seller_id, scope, subject) do update
       set per_call_micros = excluded.per_call_micros, per_day_micros = excluded.per_day_micros,
           per_month_micros = excluded.per_month_micros, human_id = excluded.human_id, updated_at = now()`,
    [b.id, b.sellerId, b.scope, b.subject, b.humanId, s(l.perCallMicros), s(l.perDayMicros), s(l.perMonthMicros), b.day, b.month],
  );
}

/** Every budget the person set at this seller (theirs, and one per credential they claimed). */
export async function findBudgetsOf(sellerId: string, humanId: string): Promise<BudgetView[]> {
  const rows = await db.budget.findMany({ where: { sellerId, humanId }, orderBy: [{ scope: "desc" }, { subject: "asc" }] });
  return rows.map((r) => ({
    id: r.id,
    scope: r.scope as "credential" | "person",
    subject: r.subject,
    perCallMicros: r.perCallMicros,
    perDayMicros: r.perDayMicros,
    perMonthMicros: r.perMonthMicros,
    dayStart: r.dayStart,
    dayUsedMicros: r.dayUsedMicros,
    monthStart: r.monthStart,
    monthUsedMicros: r.monthUsedMicros,
  }));
}
