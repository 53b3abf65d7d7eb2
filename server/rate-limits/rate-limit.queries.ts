// Rate-limit counters in PostgreSQL, so every app instance shares one budget per key and window.
import { db, sql } from "../db/client";

export type LeaseRequest = { key: string; units: number; limit: number };

/**
 * Lease up to `units` of each key's budget for the window, never past its `limit`: one statement for every key (one
 * round trip, one row lock per key). Returns the units granted per key; 0 when the window's budget is spent (the row
 * is then left as it was). A row's count is what was leased across instances, which may pass the limit by less than
 * one lease; the grant never does.
 */
export async function leaseWindowUnits(windowStart: Date, requests: LeaseRequest[]): Promise<Map<string, number>> {
  if (requests.length === 0) return new Map();
  const { rows } = await sql<{ key: string; count: number; asked: number; lim: number }>(
    `with req (k, n, lim) as (select * from unnest($2::text[], $3::int[], $4::int[]))
     insert into rate_limit_buckets as b (key, window_start, count)
     select k, $1::timestamp, least(n, lim) from req
     on conflict (key, window_start) do update set count = b.count + excluded.count
       where b.count < (select lim from req where req.k = b.key)
     returning b.key, b.count, (select least(n, lim) from req where req.k = b.key) as asked, (select lim from req where req.k = b.key) as lim`,
    [windowStart, requests.map((r) => r.key), requests.map((r) => r.units), requests.map((r) => r.limit)],
    "rate_limit_lease",
  );
  const granted = new Map(requests.map((r) => [r.key, 0]));
  // The count before this lease was count - asked; the grant is what fits under the limit from there.
  for (const r of rows) granted.set(r.key, Math.max(0, Math.min(r.asked, r.lim - (r.count - r.asked))));
  return granted;
}

export async function deleteOldRateLimitWindows(before: Date): Promise<number> {
  return db.rateLimitBucket.deleteMany({ where: { windowStart: { lt: before } } }).then((r) => r.count);
}
