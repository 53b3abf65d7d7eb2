// How many 402 challenges a storefront issued, per operation, over whole UTC days: the funnel's first stage and the
// overview's conversion start here. A 402 writes no row (stateless challenges, docs/challenges.md): it is counted in
// memory and flushed into challenge_counts (challenge-counts.ts); a day's count is the greater of that and the rows born
// from its challenges' ids, plus, for days before the change, the challenge rows and the deleted ones' counts.
import { countIssuedChallenges } from "./funnel.queries";

export async function countChallengesIssued(sellerId: string, days: [string, string], through: string | null): Promise<Map<string, number>> {
  const rows = await countIssuedChallenges(sellerId, days, through);
  return new Map(rows.map((r) => [r.operationKey, r.count]));
}
