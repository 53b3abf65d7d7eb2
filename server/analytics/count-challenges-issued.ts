// How many 402 challenges a storefront issued, per operation, over whole UTC days: the funnel's first stage and the
// overview's conversion start here. Today a challenge is a payment row (deleted unpaid after a day, counted as it is
// deleted); once challenges are stateless and counted into the daily tables as they are issued, this function is the
// one place that changes.
import { countIssuedChallenges } from "./funnel.queries";

export async function countChallengesIssued(sellerId: string, days: [string, string], through: string | null): Promise<Map<string, number>> {
  const rows = await countIssuedChallenges(sellerId, days, through);
  return new Map(rows.map((r) => [r.operationKey, r.count]));
}
