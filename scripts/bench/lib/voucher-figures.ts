// What the voucher-paid calls of a bench run cost on chain: every deposit that opened a channel and every claim that
// collected the vouchers, over every voucher-paid call, read from the rail's own record of its transactions (each with
// the gas its receipt says it used). The server's reconciler claims once enough vouchers wait; the last ones are
// claimed here, as its next pass would, so no call is left out of the figure.
import pg from "pg";
import type { BenchContext } from "../types";

export async function claimAllVouchers(ctx: BenchContext): Promise<void> {
  for (const k of ["DATABASE_URL", "APP_SECRET", "MARKET_UPSTREAM_SECRET", "RPC_URL", "FACILITATOR", "FACILITATOR_PRIVATE_KEY"])
    if (ctx.env[k]) process.env[k] = ctx.env[k];
  const { claimVouchers } = await import("../../../server/payments/rails/x402-batch/claim-vouchers");
  // The server's captures of the last calls land a moment after their answers.
  await new Promise((r) => setTimeout(r, 1000));
  try {
    for (let i = 0; i < 20; i++) {
      const r = await claimVouchers({ force: true });
      ctx.log(`claim pass: ${JSON.stringify(r)}`);
      if ("skipped" in r) return;
      // Another instance's (the server's) claim in flight: let it land.
      if ("pending" in r) await new Promise((res) => setTimeout(res, 2000));
    }
  } finally {
    // This process's connections close before the stack's database stops under them.
    await (await import("../../../server/db/client")).closeDatabase();
  }
}

export async function voucherChainFigures(databaseUrl: string) {
  const c = new pg.Client({ connectionString: databaseUrl });
  await c.connect();
  try {
    const txs = await c.query<{ kind: string; n: number; gas: string }>(
      `select kind, count(*)::int as n, coalesce(sum(gas_used), 0)::text as gas from batch_transactions where status = 'confirmed' group by kind`,
    );
    const calls = Number(
      (await c.query<{ n: string }>(`select count(*)::text as n from payments where rail = 'x402-batch' and status = 'consumed'`)).rows[0]!.n,
    );
    const of = (kind: string) => txs.rows.find((r) => r.kind === kind);
    const deposits = of("deposit")?.n ?? 0;
    const claims = of("claim")?.n ?? 0;
    const gas = BigInt(of("deposit")?.gas ?? 0) + BigInt(of("claim")?.gas ?? 0);
    return {
      calls,
      deposits,
      claims,
      txsPerCall: ((deposits + claims) / Math.max(1, calls)).toFixed(4),
      gasPerCall: (Number(gas) / Math.max(1, calls)).toFixed(0),
    };
  } finally {
    await c.end();
  }
}
