// A hold still `held` after its lease belongs to an instance that stopped between reserving and settling the call:
// the reconciler gives it back to its windows (in the agent's favour). If that instance was only slow and confirms
// afterwards, the confirmation counts it again (budgets.queries.ts `confirmBudgetHold`).
import { findLapsedBudgetHolds, releaseBudgetHolds } from "./budgets.queries";

export async function releaseLapsedBudgetHolds(limit = 500): Promise<number> {
  const ids = await findLapsedBudgetHolds(new Date(), limit);
  return releaseBudgetHolds(ids);
}
