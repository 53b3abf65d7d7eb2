// The refusal of a call that would pass a budget, in the service description's error shape: which limit (whose, per
// call, day or month), the limit, what is left of it, the price asked, and when it resets (UTC windows).
import { AppError } from "../errors";
import { microsToUsd } from "../lib/money";
import type { BudgetPeriod, Windows } from "./budget-windows";
import type { AppliedBudget } from "./budgets.queries";

type Passed = { budget: AppliedBudget; period: BudgetPeriod; limit: bigint; left: bigint };

/** The first limit this price passes: the credential's before the person's, per call before day before month. */
export function firstPassedLimit(budgets: AppliedBudget[], amountMicros: bigint): Passed | null {
  const ordered = [...budgets].sort((a, b) => (a.scope === b.scope ? 0 : a.scope === "credential" ? -1 : 1));
  for (const budget of ordered) {
    const checks: [BudgetPeriod, bigint | null, bigint][] = [
      ["call", budget.perCallMicros, 0n],
      ["day", budget.perDayMicros, budget.dayUsedMicros],
      ["month", budget.perMonthMicros, budget.monthUsedMicros],
    ];
    for (const [period, limit, used] of checks)
      if (limit !== null && used + amountMicros > limit) return { budget, period, limit, left: limit > used ? limit - used : 0n };
  }
  return null;
}

const WHOSE = { credential: "this agent's", person: "the budget for all of its person's agents" } as const;

/** What a refusal names: the limit passed, what is left of it, the price and when it resets (null: never, or unknown). */
export type BudgetRefusalFacts = {
  budgetScope: "credential" | "person";
  budgetPeriod: BudgetPeriod;
  limitUsd: string;
  remainingUsd: string;
  priceUsd: string;
  resetsAt: string | null;
};

/** 403 `budget_exceeded`: nothing was charged; the agent may retry after `resetsAt` (a per-call limit never resets). */
export function budgetExceeded(
  budgets: AppliedBudget[],
  amountMicros: bigint,
  windows: Windows,
): { error: AppError; facts: (BudgetRefusalFacts & { budgetId: string }) | null } {
  const passed = firstPassedLimit(budgets, amountMicros);
  // The statement refused, so some limit was passed; if the counts moved meanwhile, say so without inventing one.
  if (!passed)
    return {
      error: new AppError("budget_exceeded", { detail: "a budget set by the person who claimed this agent would be passed; nothing was charged" }),
      facts: null,
    };
  const resets = passed.period === "day" ? windows.nextDay : passed.period === "month" ? windows.nextMonth : null;
  const whose = passed.budget.scope === "credential" ? WHOSE.credential : WHOSE.person;
  const per = passed.period === "call" ? "per-call limit" : `${passed.period === "day" ? "daily" : "monthly"} limit (UTC)`;
  const facts: BudgetRefusalFacts = {
    budgetScope: passed.budget.scope,
    budgetPeriod: passed.period,
    limitUsd: microsToUsd(passed.limit),
    remainingUsd: microsToUsd(passed.left),
    priceUsd: microsToUsd(amountMicros),
    resetsAt: resets ? resets.toISOString() : null,
  };
  const error = new AppError("budget_exceeded", {
    detail: `this call costs $${microsToUsd(amountMicros)} and would pass ${whose} ${per} of $${microsToUsd(passed.limit)} ($${microsToUsd(passed.left)} left); nothing was charged`,
    extra: facts,
    headers: resets ? { "retry-after": String(Math.max(1, Math.ceil((resets.getTime() - Date.now()) / 1000))) } : undefined,
  });
  return { error, facts: { ...facts, budgetId: passed.budget.id } };
}
