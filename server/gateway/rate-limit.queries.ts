// Fixed-window counters in PostgreSQL, so every app instance shares one budget per key.
import { db } from "../db/client";

/** Count one hit on each key in the window; returns the counts after the hit. One statement, one round trip. */
export async function hitWindows(keys: string[], windowStart: Date): Promise<Map<string, number>> {
  if (keys.length === 0) return new Map();
  const rows = await db.$queryRawUnsafe<{ key: string; count: number }[]>(
    `insert into rate_limit_buckets (key, window_start, count)
     select k, $1::timestamp, 1 from unnest($2::text[]) as k
     on conflict (key, window_start) do update set count = rate_limit_buckets.count + 1
     returning key, count`,
    windowStart,
    keys,
  );
  return new Map(rows.map((r) => [r.key, Number(r.count)]));
}

export async function deleteOldRateLimitWindows(before: Date): Promise<number> {
  return db.rateLimitBucket.deleteMany({ where: { windowStart: { lt: before } } }).then((r) => r.count);
}
