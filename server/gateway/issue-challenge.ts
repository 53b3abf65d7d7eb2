// The 402 as the pipeline answers it: the rails' offers (payments/create-challenge.ts, which writes nothing) and the
// funnel's count of the 402 (analytics/challenge-counts.ts, in memory, flushed into a daily table every few seconds).
// Counted here, by the pipeline that answers it, so the money path does not import the console's figures.
import { countChallengeIssued } from "../analytics/challenge-counts";
import { createChallenge, type Challenge, type ChallengeOptions } from "../payments/create-challenge";
import type { PaidCall } from "../payments/paid-call";

export async function issueChallenge(call: PaidCall, opts: ChallengeOptions = {}): Promise<Challenge> {
  // The funnel counts one 402 per unpaid call; a refused proof is its own fact (step "proof"), and the offer that comes
  // with its refusal re-offers the same call, so it is not counted as another 402 issued.
  if (opts.refused === undefined) countChallengeIssued(call.sellerId, call.operationKey);
  return createChallenge(call, opts);
}
