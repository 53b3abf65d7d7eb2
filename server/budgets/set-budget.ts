// A person sets a budget: on one credential they claimed at this storefront, or on all of theirs there together.
// Limits arrive as decimal USD strings (empty: no limit) and are kept in micro-USD.
import { AppError, invalidParameter } from "../errors";
import { newId } from "../lib/ids";
import { parseUsd } from "../lib/money";
import { announceBudgetChange } from "./budget-changes";
import { budgetWindows, dateOnly } from "./budget-windows";
import { isClaimedBy, upsertBudget, type BudgetLimits } from "./budget-settings.queries";

export type BudgetInput = {
  sellerId: string;
  humanId: string;
  /** A credential the person claimed, or null for all their credentials here together. */
  credentialId: string | null;
  perCallUsd?: string | null;
  perDayUsd?: string | null;
  perMonthUsd?: string | null;
};

/** Largest limit accepted: $1,000,000 (a typo of a few zeros should not read as "no limit" nor overflow a form). */
const MAX_LIMIT_MICROS = 1_000_000n * 1_000_000n;

function limitOf(name: string, value: string | null | undefined): bigint | null {
  if (value === null || value === undefined || value.trim() === "") return null;
  const micros = parseUsd(value.replace(/^\$/, ""));
  if (micros === null) throw invalidParameter(name, `${name} is a USD amount such as 1.00 (at most 6 decimals), or empty for no limit`);
  if (micros > MAX_LIMIT_MICROS) throw invalidParameter(name, `${name} is at most 1000000`);
  return micros;
}

export function parseBudgetLimits(input: Pick<BudgetInput, "perCallUsd" | "perDayUsd" | "perMonthUsd">): BudgetLimits {
  return {
    perCallMicros: limitOf("per_call_usd", input.perCallUsd),
    perDayMicros: limitOf("per_day_usd", input.perDayUsd),
    perMonthMicros: limitOf("per_month_usd", input.perMonthUsd),
  };
}

export async function setBudget(input: BudgetInput): Promise<void> {
  const limits = parseBudgetLimits(input);
  if (input.credentialId !== null && !(await isClaimedBy(input.sellerId, input.credentialId, input.humanId)))
    throw new AppError("forbidden", { detail: "that agent credential is not one you claimed at this storefront" });
  const w = budgetWindows();
  await upsertBudget({
    id: newId("bud"),
    sellerId: input.sellerId,
    humanId: input.humanId,
    scope: input.credentialId === null ? "person" : "credential",
    subject: input.credentialId ?? input.humanId,
    limits,
    day: dateOnly(w.day),
    month: dateOnly(w.month),
  });
  // Every instance hears it from the row's trigger; this one forgets without waiting for that.
  announceBudgetChange(input.credentialId === null ? `h:${input.humanId}` : `c:${input.credentialId}`);
}
