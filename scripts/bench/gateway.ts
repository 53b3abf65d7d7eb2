// Gateway overhead, same run, same machine: each gateway case is measured next to the upstream called directly
// (signed as the gateway would), so the ratio is the price of matching, pricing, the 402 challenge, verification,
// the PostgreSQL lock, proxying and on-chain settlement.
//  - floor:     GET /oauth2/jwks.json, a Next.js route handler that does no work (a cached, small JSON answer): the
//               most any route of this app can do on this host, which bounds every other row's requests per second
//  - direct:    GET /upstream/market/v1/aggregates/AAPL, signed with the seller's secret
//  - free:      the unpaid call, GET /api/v1/aggregates/AAPL without payment (402 with every rail's offer); with the
//               rows it writes: payments_rows_per_402, rows_written_per_402 (every table, from pg_stat_user_tables) and
//               challenge_count_upserts (the counts' periodic flush; issue 22: a 402 itself writes nothing); and its
//               throughput against the direct call's, both warm and run alternately (rps_vs_direct_alternating)
//  - paid x402: the same call with a fresh x402 proof from the official client (verify + lock + proxy + settle on anvil)
//  - paid mpp:  the same call with a fresh MPP credential from the official mppx client
//  - plan:      the same call with an agent's bearer, drawn from plan credit bought beforehand (the credits rail)
//  - voucher:   the same call paid with an x402 batch-settlement voucher by the official client (@x402/evm), on one of
//               8 channels it opened with a deposit (its spend cap raised to $5 a payment, so it deposits the 402's
//               minDeposit): verified in memory, spent by one statement, captured off the path, claimed in batches
// Every rail's load row also says what PostgreSQL wrote per call (write transactions and WAL, pg_write_xacts_per_call,
// pg_wal_bytes_per_call) and what went on chain per call (chain_txs_per_call, gas_per_call): the gas wallet's
// transactions in the load's blocks for x402 and MPP; for vouchers, every deposit and claim of the run over every
// voucher-paid call of it, once the last calls are claimed.
//  - block time: the paid x402 and MPP calls again with anvil mining a block every BENCH_BLOCK_TIME seconds (2 unless
//               set; 0 skips these rows), as on Base, where a transaction waits for its block; BENCH_BLOCK_N calls
//               (40 unless set) sequentially, each next to a direct call, then as many at 8 connections; and 8 new
//               batch-settlement channels opened there (the deposit waits for its block), then vouchers on them
//  - http:      a seller whose upstream is an HTTP API in a process of its own (as most sellers' are; the built-in
//               market upstream above is called in process): that upstream called directly, and a plan-covered call
//               through the gateway to it (seller host 127.0.0.2, same bytes answered)
// For each paid rail the gateway's own work is read from its Server-Timing: `own` = total - upstream - chain (RPC
// round trips and receipt waits), reported as own_p50_ms / own_p99_ms next to the phases' medians.
import { x402Client, x402HTTPClient } from "@x402/core/client";
import { registerExactEvmScheme } from "@x402/evm/exact/client";
import { Mppx, evm } from "mppx/client";
import { privateKeyToAccount } from "viem/accounts";
import { seedMarketSeller } from "../../prisma/seed";
import { createDb } from "../../server/db/client";
import { anvilAddress, anvilPrivateKey, setBlockTime } from "../lib/local-chain";
import { startHttpUpstream } from "./lib/http-upstream";
import { AGGREGATES_PATH, AGGREGATES_QUERY, aggregatesCalls } from "./lib/aggregates";
import { agentWithCredit } from "./lib/covered-kit";
import { alternate, alternatingFields, breakdown, pct, pool, profileWindow, timed, type Phases } from "./lib/load";
import { diffTableWrites, tableWrites, withPgStats } from "./lib/pg-stats";
import { withChainStats } from "./lib/chain-stats";
import { channelLoad, interleavedProofs, openChannels, voucherProofs, type VoucherChannel } from "./lib/voucher-kit";
import { claimAllVouchers, voucherChainFigures } from "./lib/voucher-figures";
import type { BenchContext } from "./types";

const N = Number(process.env.BENCH_GATEWAY_N ?? 150);
const CONCURRENCY = 8;
const BLOCK_TIME = Number(process.env.BENCH_BLOCK_TIME ?? 2);
const BLOCK_N = Number(process.env.BENCH_BLOCK_N ?? 40);
const ALT_N = Number(process.env.BENCH_ALTERNATE_N ?? 500);
const ALT_ROUNDS = Number(process.env.BENCH_ALTERNATE_ROUNDS ?? 4);
const ALT_WARM = Number(process.env.BENCH_ALTERNATE_WARM ?? 1000);

export async function run(ctx: BenchContext) {
  const { gatewayUrl, direct } = aggregatesCalls(ctx);
  const challenge = () => fetch(gatewayUrl);
  const floor = () => fetch(`${ctx.baseUrl}/oauth2/jwks.json`);

  const payers = [1, 2, 3, 4, 5, 6, 7, 8, 9];
  const x402Clients = payers.map((i) => {
    const c = new x402Client();
    registerExactEvmScheme(c, { signer: privateKeyToAccount(anvilPrivateKey(i)) });
    return new x402HTTPClient(c);
  });
  const mppClients = payers.map((i) =>
    Mppx.create({ methods: [evm.charge({ account: privateKeyToAccount(anvilPrivateKey(i)), currencies: [evm.assets.base.USDC] })], polyfill: false }),
  );
  /** A fresh proof per paid call (each 402 is its own challenge; proofs are single-use), made before timing starts. */
  async function proofs(rail: "x402" | "mpp", n: number): Promise<Record<string, string>[]> {
    const out: Record<string, string>[] = [];
    for (let i = 0; i < n; i++) {
      const res = await challenge();
      if (rail === "x402") {
        const http = x402Clients[i % payers.length]!;
        const required = http.getPaymentRequiredResponse((h) => res.headers.get(h), await res.json());
        out.push(http.encodePaymentSignatureHeader(await http.createPaymentPayload(required)));
      } else {
        const prepared = await mppClients[i % payers.length]!.preparePayment(res);
        out.push({ authorization: await prepared.createCredential() });
      }
    }
    return out;
  }
  const paid = (p: Record<string, string>) => () => fetch(gatewayUrl, { headers: p });

  const bearer = await agentWithCredit(ctx.baseUrl);
  const plan = () => fetch(gatewayUrl, { headers: bearer });

  const channels = await openChannels(gatewayUrl, ctx.env.RPC_URL!, [1, 2, 3, 4, 5, 6, 7, 8]);
  /**
   * The next voucher of a free channel, the one with the most proofs left (a channel's proofs go out in order, one at a
   * time; callers do not take turns evenly, hence a quarter more proofs than calls).
   */
  const voucherCaller = async (count: number) => {
    const per = Math.ceil((count / channels.length) * 1.25);
    const idle = await Promise.all(channels.map(async (ch) => ({ proofs: await voucherProofs(gatewayUrl, ch, per) })));
    return async () => {
      const q = idle.splice(
        idle.reduce((best, x, i) => (x.proofs.length > idle[best]!.proofs.length ? i : best), 0),
        1,
      )[0]!;
      try {
        return await timed(paid(q.proofs.shift()!), 200);
      } finally {
        idle.push(q);
      }
    };
  };

  // The networked case: a second storefront (host 127.0.0.2) whose services call an HTTP upstream in its own process,
  // answering the bytes the built-in upstream gives for this call.
  const upstream = await startHttpUpstream(Buffer.from(await (await direct()).arrayBuffer()));
  const httpBase = `${new URL(ctx.baseUrl).protocol}//127.0.0.2:${new URL(ctx.baseUrl).port}`;
  {
    const db = createDb(ctx.env.DATABASE_URL!, 2);
    const { sellerId } = await seedMarketSeller(db, {
      slug: "bench-http-upstream",
      name: "Bench HTTP upstream",
      hosts: ["127.0.0.2"],
      email: "bench-http-upstream@bench.test",
      password: "bench-http-upstream-password",
      payTo: anvilAddress(10),
      signingSecret: "bench-http-upstream-secret-0123456789",
    });
    await db.service.updateMany({ where: { sellerId, upstreamUrl: { not: "" } }, data: { upstreamUrl: upstream.url } });
    await db.$disconnect();
  }
  const httpBearer = await agentWithCredit(httpBase);
  const httpDirect = () => fetch(`${upstream.url}${AGGREGATES_PATH}?${AGGREGATES_QUERY}`);
  const httpPlan = () => fetch(`${httpBase}/api/v1${AGGREGATES_PATH}?${AGGREGATES_QUERY}`, { headers: httpBearer });

  // Warm-up (JIT, pools, catalog cache, first chain calls).
  for (let i = 0; i < 20; i++) await timed(floor, 200);
  for (let i = 0; i < 20; i++) await timed(direct, 200);
  for (let i = 0; i < 20; i++) await timed(challenge, 402);
  for (const rail of ["x402", "mpp"] as const) for (const p of await proofs(rail, 10)) await timed(paid(p), 200);
  for (let i = 0; i < 20; i++) await timed(plan, 200);
  for (const p of await interleavedProofs(gatewayUrl, channels, 16)) await timed(paid(p), 200);
  for (let i = 0; i < 20; i++) await timed(httpDirect, 200);
  for (let i = 0; i < 20; i++) await timed(httpPlan, 200);

  // Sequential latency, interleaved case by case so every case sees the same machine state.
  const seq = {
    floor: [] as number[],
    direct: [] as number[],
    free: [] as number[],
    x402: [] as number[],
    mpp: [] as number[],
    plan: [] as number[],
    voucher: [] as number[],
    httpDirect: [] as number[],
    httpPlan: [] as number[],
  };
  const phases = {
    x402: new Map() as Phases,
    mpp: new Map() as Phases,
    plan: new Map() as Phases,
    voucher: new Map() as Phases,
    httpPlan: new Map() as Phases,
  };
  const seqProofs = { x402: await proofs("x402", N), mpp: await proofs("mpp", N), voucher: await interleavedProofs(gatewayUrl, channels, N) };
  for (let i = 0; i < N; i++) {
    seq.floor.push(await timed(floor, 200));
    seq.direct.push(await timed(direct, 200));
    seq.free.push(await timed(challenge, 402));
    seq.x402.push(await timed(paid(seqProofs.x402[i]!), 200, phases.x402));
    seq.mpp.push(await timed(paid(seqProofs.mpp[i]!), 200, phases.mpp));
    seq.plan.push(await timed(plan, 200, phases.plan));
    seq.voucher.push(await timed(paid(seqProofs.voucher[i]!), 200, phases.voucher));
    seq.httpDirect.push(await timed(httpDirect, 200));
    seq.httpPlan.push(await timed(httpPlan, 200, phases.httpPlan));
  }
  // Throughput with CONCURRENCY callers. Each case's load runs alone, in a window the profile summary can slice.
  const floorLoad = await profileWindow("floor", N, () => pool(N, CONCURRENCY, () => timed(floor, 200)));
  const directLoad = await profileWindow("direct", N, () => pool(N, CONCURRENCY, () => timed(direct, 200)));
  // Issue 22: what an unpaid 402 writes. Only 402s run in this window, so the rows the payments table gained are theirs.
  const paymentRows = async () => {
    const db = createDb(ctx.env.DATABASE_URL!, 1);
    try {
      return await db.payment.count();
    } finally {
      await db.$disconnect();
    }
  };
  const rowsBefore402 = await paymentRows();
  // Every table's written rows too (pg_stat_user_tables): "a 402 writes nothing" is about every table. A backend
  // publishes its counters up to 10 s after the transactions that changed them, and the earlier cases leave background
  // work (settlements, credit captures): wait until the counters stand still, then run the 402s alone. The server
  // flushes its in-memory challenge counts every 5 s (one upsert each), so the window closes after one more flush.
  const quietWrites = async () => {
    let before = await tableWrites(ctx.env.DATABASE_URL!);
    for (let i = 0; i < 6; i++) {
      await new Promise((r) => setTimeout(r, 11_000));
      const now = await tableWrites(ctx.env.DATABASE_URL!);
      if (Object.keys(diffTableWrites(before, now)).length === 0) return now;
      before = now;
    }
    ctx.log("402 load: the database did not go quiet before the window; its row counts include background work");
    return before;
  };
  const writesBefore402 = await quietWrites();
  const { result: freeLoad, stats: freePg } = await withPgStats(ctx.env.DATABASE_URL!, N, () =>
    profileWindow("free", N, () => pool(N, CONCURRENCY, () => timed(challenge, 402))),
  );
  ctx.log(`postgres, 402 load, per call: ${JSON.stringify(freePg.perCall)}`);
  for (const line of freePg.statements) ctx.log(`  ${line}`);
  const rowsPer402 = ((await paymentRows()) - rowsBefore402) / N;
  ctx.log(`402 load: ${N} challenges wrote ${(rowsPer402 * N).toFixed(0)} payments rows (${rowsPer402.toFixed(2)} per 402)`);
  await new Promise((r) => setTimeout(r, 11_500));
  const written402 = diffTableWrites(writesBefore402, await tableWrites(ctx.env.DATABASE_URL!));
  const countUpserts = written402.challenge_counts ?? 0;
  const otherRows = Object.entries(written402).reduce((n, [t, k]) => (t === "challenge_counts" ? n : n + k), 0);
  ctx.log(`402 load: rows written per table in its window (+11.5 s): ${JSON.stringify(written402)}`);
  // The 402's throughput against the direct call's beside it: the 402 load above ran after seconds of idle waiting,
  // the direct load long before, and 150 calls at 8 connections last a fraction of a second, so one GC pause, a cold
  // start or code the JIT has not optimised yet moves either rate by half. Here both are warmed with ALT_WARM calls and
  // run alternately, ALT_ROUNDS rounds of ALT_N calls each; the rates are of the totals (lib/load.ts `alternate`). After
  // the rows-written window has closed, so that window holds the 150 402s it divides by and nothing else.
  const alt = { n: ALT_N, rounds: ALT_ROUNDS, warm: ALT_WARM, concurrency: CONCURRENCY };
  const beside = await alternate({ call: () => timed(direct, 200) }, { call: () => timed(challenge, 402) }, alt);
  const loadProofs = { x402: await proofs("x402", N), mpp: await proofs("mpp", N) };
  // The wallet rails' loads with what PostgreSQL and the chain did for them (the gas wallet settles each call).
  const gasWallet = anvilAddress(0);
  const walletLoad = (name: "x402" | "mpp") =>
    withChainStats(ctx.env.RPC_URL!, gasWallet, N, () =>
      withPgStats(ctx.env.DATABASE_URL!, N, () => profileWindow(name, N, () => pool(N, CONCURRENCY, (i) => timed(paid(loadProofs[name][i]!), 200)))),
    );
  const x402Run = await walletLoad("x402");
  const mppRun = await walletLoad("mpp");
  const [x402Load, mppLoad] = [x402Run.result.result, mppRun.result.result];
  // PostgreSQL's side of the covered call against the direct one (same load): statements, commits, WAL per call.
  const planRun = await withChainStats(ctx.env.RPC_URL!, gasWallet, N, () =>
    withPgStats(ctx.env.DATABASE_URL!, N, () => profileWindow("plan", N, () => pool(N, CONCURRENCY, () => timed(plan, 200)))),
  );
  const { result: planLoad, stats: planPg } = planRun.result;
  ctx.log(`postgres, plan-covered load, per call: ${JSON.stringify(planPg.perCall)}`);
  for (const line of planPg.statements) ctx.log(`  ${line}`);
  // The covered call beside the direct one, warm and alternately, as the 402 above.
  const planBeside = await alternate({ call: () => timed(direct, 200) }, { call: () => timed(plan, 200) }, alt);
  // Vouchers: each channel's calls one at a time (a voucher is signed on the one before it), 8 channels at once.
  const voucherLists = await Promise.all(channels.map((ch) => voucherProofs(gatewayUrl, ch, Math.ceil(N / channels.length))));
  const { result: voucherLoad, stats: voucherPg } = await withPgStats(ctx.env.DATABASE_URL!, N, () =>
    profileWindow("voucher", N, () => channelLoad(voucherLists, (h) => timed(paid(h), 200))),
  );
  ctx.log(`postgres, voucher load, per call: ${JSON.stringify(voucherPg.perCall)}`);
  for (const line of voucherPg.statements) ctx.log(`  ${line}`);
  const voucherBeside = await alternate({ call: () => timed(direct, 200) }, { call: await voucherCaller(ALT_WARM + ALT_N * ALT_ROUNDS) }, alt);
  // Every voucher of the run claimed (the server's own passes claim once enough are unclaimed; the rest now), then
  // every deposit and claim it took, over every voucher-paid call.
  await claimAllVouchers(ctx);
  const voucherChain = await voucherChainFigures(ctx.env.DATABASE_URL!);
  ctx.log(`vouchers on chain: ${JSON.stringify(voucherChain)}`);
  const httpDirectLoad = await profileWindow("http-direct", N, () => pool(N, CONCURRENCY, () => timed(httpDirect, 200)));
  const httpPlanLoad = await profileWindow("http-plan", N, () => pool(N, CONCURRENCY, () => timed(httpPlan, 200)));
  upstream.stop();

  // The same paid calls on a chain that makes a block every BLOCK_TIME seconds (the rows above mine at once).
  const block = { direct: [] as number[], x402: [] as number[], mpp: [] as number[], deposit: [] as number[], voucher: [] as number[] };
  const blockPhases = { x402: new Map() as Phases, mpp: new Map() as Phases, voucher: new Map() as Phases };
  let blockLoad: { x402: { rps: number }; mpp: { rps: number } } | null = null;
  if (BLOCK_TIME > 0) {
    await setBlockTime(ctx.env.RPC_URL!, BLOCK_TIME);
    try {
      // Warm-up on the slow chain: the first settlements show the gateway how long inclusion takes here.
      for (const rail of ["x402", "mpp"] as const) for (const p of await proofs(rail, 5)) await timed(paid(p), 200);
      // New channels here: their deposits wait for a block; the vouchers on them do not touch the chain.
      const blockChannels: VoucherChannel[] = await openChannels(gatewayUrl, ctx.env.RPC_URL!, [1, 2, 3, 4, 5, 6, 7, 8], block.deposit);
      const seqBlock = {
        x402: await proofs("x402", BLOCK_N),
        mpp: await proofs("mpp", BLOCK_N),
        voucher: await interleavedProofs(gatewayUrl, blockChannels, BLOCK_N),
      };
      for (let i = 0; i < BLOCK_N; i++) {
        block.direct.push(await timed(direct, 200));
        block.x402.push(await timed(paid(seqBlock.x402[i]!), 200, blockPhases.x402));
        block.mpp.push(await timed(paid(seqBlock.mpp[i]!), 200, blockPhases.mpp));
        block.voucher.push(await timed(paid(seqBlock.voucher[i]!), 200, blockPhases.voucher));
      }
      const loadBlock = { x402: await proofs("x402", BLOCK_N), mpp: await proofs("mpp", BLOCK_N) };
      blockLoad = {
        x402: await profileWindow("x402-block", BLOCK_N, () => pool(BLOCK_N, CONCURRENCY, (i) => timed(paid(loadBlock.x402[i]!), 200))),
        mpp: await profileWindow("mpp-block", BLOCK_N, () => pool(BLOCK_N, CONCURRENCY, (i) => timed(paid(loadBlock.mpp[i]!), 200))),
      };
      // Let the last blocks land before the chain goes back to instant mining.
      await new Promise((r) => setTimeout(r, BLOCK_TIME * 1000 + 500));
    } finally {
      await setBlockTime(ctx.env.RPC_URL!, 0);
    }
  }

  ctx.record("floor: a Next.js route doing no work (JWKS)", seq.floor, { rps_8conn: floorLoad.rps, rps_vs_x402: (floorLoad.rps / x402Load.rps).toFixed(1) });
  ctx.record("upstream direct GET aggregates (signed)", seq.direct, { rps_8conn: directLoad.rps });
  ctx.record("gateway free: unpaid call -> 402 challenge", seq.free, {
    rps_8conn: freeLoad.rps,
    rps_vs_direct: (freeLoad.rps / directLoad.rps).toFixed(2),
    // Both warm, alternately (above): the fair ratio for "a 402 costs less than the call it guards".
    ...alternatingFields(beside),
    payments_rows_per_402: rowsPer402.toFixed(2),
    // Rows any table gained, lost or changed in that window (background work of the same seconds included), the
    // challenge counts' upserts apart (one row per seller, day and operation per flush, whatever the number of 402s).
    rows_written_per_402: (otherRows / N).toFixed(2),
    challenge_count_upserts: countUpserts,
  });
  const pgColumns = (stats: { perCall: Record<string, string> }) => ({
    pg_write_xacts_per_call: stats.perCall.write_transactions!,
    pg_wal_bytes_per_call: stats.perCall.wal_bytes!,
  });
  ctx.record("gateway paid x402: verify+lock+proxy+settle", seq.x402, {
    rps_8conn: x402Load.rps,
    ...pgColumns(x402Run.result.stats),
    ...x402Run.chain,
    ...breakdown(phases.x402),
  });
  ctx.record("gateway paid mpp: verify+lock+proxy+settle", seq.mpp, {
    rps_8conn: mppLoad.rps,
    ...pgColumns(mppRun.result.stats),
    ...mppRun.chain,
    ...breakdown(phases.mpp),
  });
  const directP = (p: number) => pct(seq.direct, p);
  ctx.record("gateway plan-covered call (credits: reserve+proxy, capture off path)", seq.plan, {
    rps_8conn: planLoad.rps,
    over_direct_p50_ms: (pct(seq.plan, 50) - directP(50)).toFixed(2),
    over_direct_p99_ms: (pct(seq.plan, 99) - directP(99)).toFixed(2),
    rps_vs_x402: (planLoad.rps / x402Load.rps).toFixed(1),
    rps_vs_direct: (planLoad.rps / directLoad.rps).toFixed(2),
    ...alternatingFields(planBeside),
    ...pgColumns(planPg),
    ...planRun.chain,
    ...breakdown(phases.plan),
  });
  ctx.record("gateway paid voucher (x402 batch-settlement: verify in memory, one statement, proxy, capture off path)", seq.voucher, {
    rps_8conn: voucherLoad.rps,
    over_direct_p50_ms: (pct(seq.voucher, 50) - directP(50)).toFixed(2),
    over_direct_p99_ms: (pct(seq.voucher, 99) - directP(99)).toFixed(2),
    rps_vs_x402: (voucherLoad.rps / x402Load.rps).toFixed(1),
    rps_vs_direct: (voucherLoad.rps / directLoad.rps).toFixed(2),
    ...alternatingFields(voucherBeside),
    ...pgColumns(voucherPg),
    chain_txs_per_call: voucherChain.txsPerCall,
    gas_per_call: voucherChain.gasPerCall,
    voucher_calls: voucherChain.calls,
    deposits: voucherChain.deposits,
    claims: voucherChain.claims,
    ...breakdown(phases.voucher),
  });
  if (blockLoad) {
    const blockDirectP = (p: number) => pct(block.direct, p);
    const over = (xs: number[]) => ({
      over_direct_p50_ms: (pct(xs, 50) - blockDirectP(50)).toFixed(2),
      over_direct_p99_ms: (pct(xs, 99) - blockDirectP(99)).toFixed(2),
    });
    ctx.record(`upstream direct GET aggregates, beside the ${BLOCK_TIME} s block rows`, block.direct, {});
    ctx.record(`gateway paid x402, a block every ${BLOCK_TIME} s`, block.x402, {
      rps_8conn: blockLoad.x402.rps,
      ...over(block.x402),
      ...breakdown(blockPhases.x402),
    });
    ctx.record(`gateway paid mpp, a block every ${BLOCK_TIME} s`, block.mpp, {
      rps_8conn: blockLoad.mpp.rps,
      ...over(block.mpp),
      ...breakdown(blockPhases.mpp),
    });
    ctx.record(`gateway batch-settlement deposit (opens a channel), a block every ${BLOCK_TIME} s`, block.deposit, { ...over(block.deposit) });
    ctx.record(`gateway paid voucher, a block every ${BLOCK_TIME} s`, block.voucher, { ...over(block.voucher), ...breakdown(blockPhases.voucher) });
  }
  const httpDirectP = (p: number) => pct(seq.httpDirect, p);
  ctx.record("http upstream direct GET (its own process)", seq.httpDirect, { rps_8conn: httpDirectLoad.rps });
  ctx.record("gateway plan-covered call, http upstream", seq.httpPlan, {
    rps_8conn: httpPlanLoad.rps,
    over_direct_p50_ms: (pct(seq.httpPlan, 50) - httpDirectP(50)).toFixed(2),
    over_direct_p99_ms: (pct(seq.httpPlan, 99) - httpDirectP(99)).toFixed(2),
    ...breakdown(phases.httpPlan),
  });
  ctx.ratio("gateway overhead, plan-covered call, http upstream", "gateway plan-covered call, http upstream", "http upstream direct GET (its own process)");
  ctx.ratio(
    "gateway overhead, plan-covered call",
    "gateway plan-covered call (credits: reserve+proxy, capture off path)",
    "upstream direct GET aggregates (signed)",
  );
  ctx.ratio(
    "gateway overhead, paid voucher call",
    "gateway paid voucher (x402 batch-settlement: verify in memory, one statement, proxy, capture off path)",
    "upstream direct GET aggregates (signed)",
  );
  ctx.ratio("gateway overhead, paid x402 call", "gateway paid x402: verify+lock+proxy+settle", "upstream direct GET aggregates (signed)");
  ctx.ratio("gateway overhead, paid mpp call", "gateway paid mpp: verify+lock+proxy+settle", "upstream direct GET aggregates (signed)");
  ctx.ratio("gateway overhead, free (402) call", "gateway free: unpaid call -> 402 challenge", "upstream direct GET aggregates (signed)");
}
