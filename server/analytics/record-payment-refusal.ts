// A refused payment proof, as a fact for the console's funnel: rail, operation and the code answered. Written on the
// refusal path only (a refused proof locks nothing, so no payment row would remember it); the paid path never
// calls this. A failure to record is logged and swallowed: the caller's answer must not depend on analytics.
import { isAppError } from "../errors";
import { insertPaymentRefusal } from "./funnel.queries";

/** settlement_failed names its cause in `settlementReason` (SERVICE.md part 7), not `reason`: the fact keeps it. */
function settlementReason(extra: Record<string, unknown> | undefined): string | null {
  return typeof extra?.settlementReason === "string" ? extra.settlementReason : null;
}

export async function recordPaymentRefusal(r: { sellerId: string; rail: string | null; operationKey: string; error: unknown }): Promise<void> {
  if (!isAppError(r.error)) return;
  try {
    await insertPaymentRefusal({
      sellerId: r.sellerId,
      rail: r.rail,
      operationKey: r.operationKey,
      code: r.error.code,
      reason: r.error.reason ?? settlementReason(r.error.extra),
    });
  } catch (e) {
    console.error("[analytics] could not record a payment refusal:", e instanceof Error ? e.message : e);
  }
}
