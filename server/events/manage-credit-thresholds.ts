// "Credit low" is a line per plan, set by the seller: when a holder's credit on the plan falls below it, credit.low is
// emitted (the database's statement trigger on credit_grants compares the balance before and after each draw). No line:
// only credit.exhausted, when it reaches zero.
import { recordAudit } from "../audit/audit.queries";
import { AppError, invalidParameter } from "../errors";
import { microsToUsd, parseUsd } from "../lib/money";
import { findCreditThresholds, withTransaction, writeCreditThreshold } from "./events.queries";

export async function listCreditThresholds(sellerId: string) {
  return (await findCreditThresholds(sellerId)).map((p) => ({
    planId: p.planId,
    slug: p.slug,
    name: p.name,
    status: p.status,
    thresholdUsd: p.lowMicros == null ? null : microsToUsd(p.lowMicros),
  }));
}

export async function setCreditThreshold(a: { sellerId: string; actorId: string | null; planId: string; thresholdUsd: string | null }) {
  let micros: bigint | null = null;
  if (a.thresholdUsd !== null) {
    micros = parseUsd(a.thresholdUsd);
    if (micros == null || micros <= 0n) throw invalidParameter("thresholdUsd", "a positive USD amount with at most six decimals, such as 5.00");
  }
  await withTransaction(async (tx) => {
    const r = await writeCreditThreshold(tx, a.sellerId, a.planId, micros);
    if (!r) throw new AppError("not_found", { detail: "no such credit plan" });
    await recordAudit(tx, {
      sellerId: a.sellerId,
      actorId: a.actorId,
      action: "plan.credit_threshold",
      targetId: a.planId,
      before: { thresholdUsd: r.before == null ? null : microsToUsd(r.before) },
      after: { thresholdUsd: micros == null ? null : microsToUsd(micros) },
    });
  });
  return { planId: a.planId, thresholdUsd: micros == null ? null : microsToUsd(micros) };
}
