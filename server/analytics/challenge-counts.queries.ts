// The 402 challenges each instance counted since its last flush, added to the daily counts in one statement.
import { sql } from "../db/client";

export type ChallengeCountDelta = { sellerId: string; day: string; operationKey: string; count: number };

/** One upsert for any number of (seller, day, operation) counts: concurrent flushes of several instances add up. */
export async function addChallengeCounts(deltas: ChallengeCountDelta[]): Promise<void> {
  if (!deltas.length) return;
  await sql(
    `insert into challenge_counts (seller_id, day, operation_key, count)
     select s, d::date, o, n from unnest($1::text[], $2::text[], $3::text[], $4::int[]) as x(s, d, o, n)
       where exists (select 1 from sellers where id = x.s)
     on conflict (seller_id, day, operation_key) do update set count = challenge_counts.count + excluded.count`,
    [deltas.map((d) => d.sellerId), deltas.map((d) => d.day), deltas.map((d) => d.operationKey), deltas.map((d) => d.count)],
    "challenge_counts_add",
  );
}
