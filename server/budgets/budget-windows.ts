// The windows a budget counts in: the UTC calendar day and the UTC calendar month, whatever the person's or the
// server's time zone (server/budgets/README.md). A window is named by its first day; it resets at the next one's
// midnight UTC. The clock is Date.now(), so tests move it without waiting.

export type BudgetPeriod = "call" | "day" | "month";

export type Windows = { day: Date; month: Date; nextDay: Date; nextMonth: Date };

/** The day and month windows at `now`, each as its first instant (a DATE in SQL), and when each resets. */
export function budgetWindows(now = Date.now()): Windows {
  const d = new Date(now);
  const y = d.getUTCFullYear();
  const m = d.getUTCMonth();
  const day = new Date(Date.UTC(y, m, d.getUTCDate()));
  return {
    day,
    month: new Date(Date.UTC(y, m, 1)),
    nextDay: new Date(day.getTime() + 86_400_000),
    nextMonth: new Date(Date.UTC(y, m + 1, 1)),
  };
}

/** YYYY-MM-DD of a window's first day, as PostgreSQL's DATE takes it. */
export function dateOnly(d: Date): string {
  return d.toISOString().slice(0, 10);
}
