// Sign-in failures in PostgreSQL (sign_in_failures), so every instance counts the same attempts.
import { sql } from "../db/client";

export type KeyRule = { key: string; free: number };

/** How long from now each of these keys is locked (0: not locked); keys idle for an hour count as fresh. */
export async function lockedSeconds(keys: string[]): Promise<number> {
  const { rows } = await sql<{ s: number | null }>(
    `select max(extract(epoch from (locked_until - (now() at time zone 'UTC'))))::float8 as s from sign_in_failures
     where key = any($1::text[]) and locked_until > now() at time zone 'UTC'`,
    [keys],
    "sign_in_locked",
  );
  return Math.max(0, Math.ceil(rows[0]?.s ?? 0));
}

/**
 * One more failure on each key, in one statement: past its `free` failures a key locks for 2^(n - free) seconds, up to
 * `maxLockSeconds`; a key idle for `idleSeconds` starts again at one. Returns the longest lock now set (seconds).
 */
export async function addFailures(rules: KeyRule[], maxLockSeconds: number, idleSeconds: number): Promise<number> {
  if (!rules.length) return 0;
  const { rows } = await sql<{ s: number | null }>(
    `with req (k, free) as (select * from unnest($1::text[], $2::int[])),
     up as (
       insert into sign_in_failures as f (key, failures, locked_until, updated_at)
       select k, 1, case when 1 > free then (now() at time zone 'UTC') + make_interval(secs => 1) end, now() at time zone 'UTC' from req
       on conflict (key) do update set
         failures = case when f.updated_at < (now() at time zone 'UTC') - make_interval(secs => $4) then 1 else f.failures + 1 end,
         locked_until = case
           when (case when f.updated_at < (now() at time zone 'UTC') - make_interval(secs => $4) then 1 else f.failures + 1 end) > (select free from req where req.k = f.key)
           then (now() at time zone 'UTC') + make_interval(secs => least($3::float8, power(2::float8,
             (case when f.updated_at < (now() at time zone 'UTC') - make_interval(secs => $4) then 1 else f.failures + 1 end) - (select free from req where req.k = f.key) - 1)))
           end,
         updated_at = now() at time zone 'UTC'
       returning locked_until
     )
     select max(extract(epoch from (locked_until - (now() at time zone 'UTC'))))::float8 as s from up`,
    [rules.map((r) => r.key), rules.map((r) => r.free), maxLockSeconds, idleSeconds],
    "sign_in_add_failures",
  );
  // The column keeps milliseconds: the lock just set is a whole number of seconds, give or take one.
  return Math.max(0, Math.round(rows[0]?.s ?? 0));
}

/** Forget a key's failures (a successful sign-in forgets its account's). */
export async function clearFailures(keys: string[]): Promise<void> {
  await sql(`delete from sign_in_failures where key = any($1::text[])`, [keys]);
}

/** Delete keys idle for longer than `idleSeconds` and not locked (the reconciler's pass). */
export async function deleteIdleFailures(idleSeconds: number): Promise<number> {
  const { rowCount } = await sql(
    `delete from sign_in_failures where updated_at < (now() at time zone 'UTC') - make_interval(secs => $1)
       and (locked_until is null or locked_until < now() at time zone 'UTC')`,
    [idleSeconds],
  );
  return rowCount;
}
