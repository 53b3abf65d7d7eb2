// The seller console's aggregates at scale: 1,000,000 payments of one seller over 90 days (every state, seven
// operations, two rails, 5,000 wallets) with their ledger rows, refused proofs and expired-challenge counts; the closed
// days rolled up as the server's rollup passes would (timed), then the overview and the funnel as the console asks for
// them (in process, the same functions the tRPC procedures call) for today, 30 and 90 days, and, for comparison, 30
// days with nothing rolled up. Target: under 200 ms p50. Seeded into a seller of its own and removed afterwards, so the
// other bench cases see the same database as without this one.
import { seedMarketSeller } from "../../prisma/seed";
import type { BenchContext } from "./types";

const PAYMENTS = Number(process.env.BENCH_CONSOLE_PAYMENTS ?? 1_000_000);
const DAYS = 90;
const N = Number(process.env.BENCH_CONSOLE_N ?? 40);

export async function run(ctx: BenchContext) {
  // The stack's settings (database, secrets) for the server modules imported below, in this process.
  for (const [k, v] of Object.entries(ctx.env)) process.env[k] ??= v;
  const { db, sql } = await import("../../server/db/client");
  const { getOverview } = await import("../../server/analytics/get-overview");
  const { getFunnel } = await import("../../server/analytics/get-funnel");
  const { getMargin } = await import("../../server/analytics/get-margin");
  const { listSellerPayments } = await import("../../server/payment-reports/list-seller-payments");
  const { listPayingWallets } = await import("../../server/analytics/list-paying-wallets");
  const { getTopCustomers } = await import("../../server/analytics/get-top-customers");
  const { rollUpClosedDays } = await import("../../server/analytics/roll-up-days");
  const { resetRollups } = await import("../../server/analytics/rollup.queries");

  const { sellerId } = await seedMarketSeller(db, {
    slug: "bench-console",
    name: "Bench console",
    hosts: ["bench-console.localhost"],
    email: "bench-console@bench.test",
    password: "bench-console-password",
    payTo: "0xBcd4042DE499D14e55001CcbB24a551F3b954096",
    signingSecret: null,
  });
  let t = performance.now();
  // Spread evenly over the last 90 days. Unpaid challenges older than a day exist only as counts (the reconciler
  // deleted them); the last day keeps its unpaid rows.
  await sql(
    `insert into payments (id, seller_id, status, from_challenge, rail, method, path, query, operation_key, meter_key, amount_micros, network, asset,
       pay_to, payer, lock_key, transaction, failure_reason, expires_at, created_at, updated_at, verified_at, settled_at)
     select 'pay_bench' || g, $1, s.status::payment_status, true,
       case when s.status = 'challenged' then null when g % 4 = 0 then 'mpp' else 'x402' end,
       'GET', '/api/v1/' || o.op, '', o.op, o.op, o.price, 'eip155:8453', '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
       '0xBcd4042DE499D14e55001CcbB24a551F3b954096',
       case when s.status = 'challenged' then null else '0x' || lpad(to_hex(g % 5000), 40, '0') end,
       case when s.status = 'challenged' then null else 'bench:' || g end,
       case when s.status in ('settled', 'consumed', 'refunded', 'failed') then '0x' || lpad(to_hex(g), 64, '0') end,
       case s.status when 'released' then 'upstream_error' when 'failed' then 'insufficient_funds' end,
       c.at + interval '5 minutes', c.at, c.at, case when s.status <> 'challenged' then c.at + interval '1 second' end,
       case when s.status in ('settled', 'consumed', 'refunded') then c.at + interval '2 seconds' end
     from generate_series(1, $2::int) g
     cross join lateral (select (now() at time zone 'UTC') - make_interval(secs => (g::float8 / $2) * $3 * 86400) as at) c
     cross join lateral (select (array['aggregates','archive_catalog','archive_day','archive_range','avg_interest_rates','backtest','basis'])[1 + g % 7] as op) o0
     cross join lateral (select o0.op, case o0.op when 'backtest' then 500000 when 'basis' then 50000 when 'archive_range' then 30000
       when 'avg_interest_rates' then 10000 else 20000 end as price) o
     cross join lateral (select case
       when g % 100 < 80 then 'consumed' when g % 100 < 85 then 'settled' when g % 100 < 86 then 'refunded'
       when g % 100 < 92 then 'released' when g % 100 < 94 then 'failed'
       when c.at > (now() at time zone 'UTC') - interval '1 day' then 'challenged' else 'consumed' end as status) s`,
    [sellerId, PAYMENTS, DAYS],
  );
  ctx.log(`console: ${PAYMENTS} payments inserted in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  t = performance.now();
  await sql(
    `insert into ledger_entries (id, seller_id, payment_id, kind, rail, operation_key, payer, meter_key, units, amount_micros, gas_cost_wei, created_at)
     select 'led_c' || substr(id, 10), seller_id, id, 'charge', rail, operation_key, payer, meter_key, 1, amount_micros, 600000000000, settled_at
     from payments where seller_id = $1 and status in ('settled', 'consumed', 'refunded')`,
    [sellerId],
  );
  await sql(
    `insert into ledger_entries (id, seller_id, payment_id, kind, rail, operation_key, payer, meter_key, units, amount_micros, transaction, log_index, created_at)
     select 'led_r' || substr(id, 10), seller_id, id, 'refund', rail, operation_key, payer, meter_key, 1, amount_micros, '0xe' || lpad(to_hex(row_number() over ()), 63, '0'), 0,
       settled_at + interval '1 hour'
     from payments where seller_id = $1 and status = 'refunded'`,
    [sellerId],
  );
  // Refused proofs (3 % of calls) and the unpaid challenges the reconciler deleted (a quarter of all 402s go unpaid).
  await sql(
    `insert into payment_refusals (seller_id, rail, operation_key, code, reason, created_at)
     select $1, case when g % 4 = 0 then 'mpp' else 'x402' end, (array['aggregates','archive_catalog','archive_day','archive_range','avg_interest_rates','backtest','basis'])[1 + g % 7],
       (array['payment_request_mismatch','payment_required','payment_consumed','rate_limit_exceeded'])[1 + g % 4], null,
       (now() at time zone 'UTC') - make_interval(secs => (g::float8 / ($2 * 0.03)) * $3 * 86400)
     from generate_series(1, ($2 * 0.03)::int) g`,
    [sellerId, PAYMENTS, DAYS],
  );
  await sql(
    `insert into expired_challenge_counts (seller_id, day, operation_key, count)
     select $1, d::date, op, ($2::int / $3::int / 7 / 3) from generate_series(((now() at time zone 'UTC')::date - $3::int)::timestamp, ((now() at time zone 'UTC')::date - 2)::timestamp, interval '1 day') d,
       unnest(array['aggregates','archive_catalog','archive_day','archive_range','avg_interest_rates','backtest','basis']) op`,
    [sellerId, PAYMENTS, DAYS],
  );
  await sql(`vacuum analyze payments, ledger_entries, payment_refusals, expired_challenge_counts`);
  const counts = (
    await sql<{ p: string; l: string }>(
      `select (select count(*) from payments where seller_id = $1)::text as p, (select count(*) from ledger_entries where seller_id = $1)::text as l`,
      [sellerId],
    )
  ).rows[0]!;
  ctx.log(`console: ledger, refusals, counts and vacuum in ${((performance.now() - t) / 1000).toFixed(1)} s (${counts.p} payments, ${counts.l} ledger rows)`);

  // The rows went into closed days: start the seller's rollup over, and catch up as the server's passes would.
  await resetRollups(sellerId);
  t = performance.now();
  let rolled = 0;
  for (;;) {
    const r = await rollUpClosedDays({ sellerIds: [sellerId], maxDays: 200 });
    rolled += r.days;
    if (r.days === 0) break;
  }
  const rollupSeconds = (performance.now() - t) / 1000;
  ctx.log(`console: ${rolled} closed days rolled up in ${rollupSeconds.toFixed(1)} s (${((rollupSeconds * 1000) / Math.max(1, rolled)).toFixed(0)} ms a day)`);

  async function measure(name: string, fn: () => Promise<unknown>, extra: Record<string, string | number> = {}) {
    for (let i = 0; i < 5; i++) await fn();
    const samples: number[] = [];
    for (let i = 0; i < N; i++) {
      const s = performance.now();
      await fn();
      samples.push(performance.now() - s);
    }
    ctx.record(name, samples, extra);
  }
  const rows = (preset: "30d" | "90d") => ({ rows_in_range: Math.round((PAYMENTS * (preset === "30d" ? 30 : 90)) / DAYS) });
  await measure("console overview, 30 days (1M payments)", () => getOverview(sellerId, { preset: "30d" }), rows("30d"));
  await measure("console funnel, 30 days (1M payments)", () => getFunnel(sellerId, { preset: "30d" }), rows("30d"));
  await measure("console overview, 90 days (1M payments)", () => getOverview(sellerId, { preset: "90d" }), rows("90d"));
  await measure("console funnel, 90 days (1M payments)", () => getFunnel(sellerId, { preset: "90d" }), rows("90d"));
  await measure("console overview, today (1M payments)", () => getOverview(sellerId, { preset: "today" }));
  await measure("console margin, 30 days (1M payments)", () => getMargin(sellerId, { preset: "30d" }), rows("30d"));
  // A filter is read newest first from the covering index: a common one (failed payments on one rail) fills a page
  // after a few thousand entries; one that matches nothing reads every entry of the seller (the worst case).
  await measure("console payments page, failed on mpp (1M payments)", () => listSellerPayments(sellerId, { rail: "mpp", status: ["failed"] }));
  await measure("console payments page, no match (1M payments)", () => listSellerPayments(sellerId, { rail: "mpp", status: ["refunded"] }));
  await measure("console paying wallets, 30 days (1M payments)", () => listPayingWallets(sellerId, { preset: "30d" }), rows("30d"));
  // The overview's top wallets and credentials, a query of its own beside the overview's.
  await measure("console top customers, 30 days (1M payments)", () => getTopCustomers(sellerId, { preset: "30d" }), rows("30d"));
  await measure("console top customers, 90 days (1M payments)", () => getTopCustomers(sellerId, { preset: "90d" }), rows("90d"));
  // The same two pages before any day is rolled up (a fresh deploy, or rollups reset): every row read live.
  await resetRollups(sellerId);
  await measure("console overview, 30 days, nothing rolled up", () => getOverview(sellerId, { preset: "30d" }), rows("30d"));
  await measure("console funnel, 30 days, nothing rolled up", () => getFunnel(sellerId, { preset: "30d" }), rows("30d"));

  if (process.env.BENCH_CONSOLE_KEEP === "1") return;
  t = performance.now();
  await sql(`delete from sellers where id = $1`, [sellerId]);
  ctx.log(`console: bench seller removed in ${((performance.now() - t) / 1000).toFixed(1)} s`);
}
