// The person's account at one storefront, as its page shows it: their agents, each one's spending by UTC day (the last
// 31 days) and month (the last 12) across rails, the plan credit left, the budgets they set, the latest paid calls
// with their receipts. Money stays micro-USD here; the page formats it.
import { budgetWindows } from "./budget-windows";
import { findBudgetsOf, type BudgetView } from "./budget-settings.queries";

export type { BudgetView };
import {
  findClaimedCredentials,
  findCredit,
  findPaidCalls,
  findSpending,
  type AccountCredential,
  type CreditRow,
  type ReceiptRow,
  type SpendRow,
} from "./account.queries";

export type Account = {
  credentials: AccountCredential[];
  daily: SpendRow[];
  monthly: SpendRow[];
  credit: CreditRow[];
  budgets: BudgetView[];
  calls: ReceiptRow[];
  /** Spent today and this month (UTC) per credential, and for all of them. */
  today: Map<string, bigint>;
  thisMonth: Map<string, bigint>;
};

export const ALL_AGENTS = "*";

function totals(rows: SpendRow[], period: Date): Map<string, bigint> {
  const out = new Map<string, bigint>();
  for (const r of rows)
    if (r.period.getTime() === period.getTime()) {
      out.set(r.credentialId, (out.get(r.credentialId) ?? 0n) + r.micros);
      out.set(ALL_AGENTS, (out.get(ALL_AGENTS) ?? 0n) + r.micros);
    }
  return out;
}

export async function getAccount(sellerId: string, humanId: string): Promise<Account> {
  const w = budgetWindows();
  const [credentials, daily, monthly, credit, budgets, calls] = await Promise.all([
    findClaimedCredentials(sellerId, humanId),
    findSpending(sellerId, humanId, "day", new Date(w.day.getTime() - 30 * 86_400_000)),
    findSpending(sellerId, humanId, "month", new Date(Date.UTC(w.month.getUTCFullYear(), w.month.getUTCMonth() - 11, 1))),
    findCredit(sellerId, humanId),
    findBudgetsOf(sellerId, humanId),
    findPaidCalls(sellerId, humanId, { limit: 50 }),
  ]);
  return { credentials, daily, monthly, credit, budgets, calls, today: totals(daily, w.day), thisMonth: totals(monthly, w.month) };
}
