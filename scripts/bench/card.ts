// The card rail's hosted checkout, same run, same machine, against the built-in test processor:
//  - direct:    GET /upstream/market/v1/backtest/AAPL (signed), the work the paid call buys
//  - open:      POST payUrl {"checkout": true} of a fresh 402 (the state move and the processor's checkout)
//  - pay:       the person's card confirmation (the test processor's charge and the move to settled, ledger row)
//  - retry:     the original request with svc-payment-id of a paid checkout (the delivery claim, the proxy, delivered)
// The person's step has no HTTP endpoint of its own (it is the page's server action), so it runs in this process
// against the stack's database, as the page's action would.
import { signUpstreamRequest } from "../../server/upstream-auth/signature";
import type { BenchContext } from "./types";

const N = Number(process.env.BENCH_CARD_N ?? 60);
const QUERY = "years=1";

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.max(0, Math.ceil((p / 100) * xs.length) - 1))] ?? NaN;

export async function run(ctx: BenchContext) {
  for (const k of ["DATABASE_URL", "APP_SECRET", "MARKET_UPSTREAM_SECRET"]) process.env[k] = ctx.env[k];
  const { payWithCardOnPage } = await import("../../server/payments/rails/card/checkout/pay-on-page");
  const { findPaymentWithCardById } = await import("../../server/payments/rails/card/card.queries");
  const { closeDatabase } = await import("../../server/db/client");

  const gatewayUrl = `${ctx.baseUrl}/api/v1/backtest/AAPL?${QUERY}`;
  const direct = async () => {
    const u = new URL(`${ctx.baseUrl}/upstream/market/v1/backtest/AAPL?${QUERY}`);
    const t = performance.now();
    const res = await fetch(u, { headers: signUpstreamRequest(ctx.env.MARKET_UPSTREAM_SECRET!, { method: "GET", path: u.pathname, query: u.searchParams }) });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`direct backtest: ${res.status}`);
    return performance.now() - t;
  };
  const year = new Date().getUTCFullYear() + 2;

  /** A 402, its checkout opened (timed) and paid (timed): the payment id, ready for the retry. */
  async function paidCheckout(times?: { open: number[]; pay: number[] }): Promise<string> {
    const { payment, card } = await (await fetch(gatewayUrl)).json();
    let t = performance.now();
    const opened = await fetch(card.payUrl, { method: "POST", headers: { "content-type": "application/json" }, body: '{"checkout":true}' });
    await opened.arrayBuffer();
    if (opened.status !== 200) throw new Error(`POST payUrl: ${opened.status}`);
    times?.open.push(performance.now() - t);
    const row = (await findPaymentWithCardById(payment.id))!;
    t = performance.now();
    await payWithCardOnPage({
      sellerId: row.sellerId,
      paymentId: payment.id,
      attempt: 0,
      card: { number: "4242424242424242", expMonth: 12, expYear: year, cvc: "123" },
    });
    times?.pay.push(performance.now() - t);
    return payment.id;
  }
  const phases = new Map<string, number[]>();
  const retry = async (paymentId: string) => {
    const t = performance.now();
    const res = await fetch(gatewayUrl, { headers: { "svc-payment-id": paymentId } });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`retry: ${res.status}`);
    for (const part of (res.headers.get("server-timing") ?? "").split(",")) {
      const m = /^\s*(\w+);dur=([\d.]+)/.exec(part);
      if (m) phases.set(m[1]!, [...(phases.get(m[1]!) ?? []), Number(m[2])]);
    }
    return performance.now() - t;
  };

  // Warm-up.
  for (let i = 0; i < 5; i++) {
    await direct();
    await retry(await paidCheckout());
  }
  phases.clear();
  const times = { direct: [] as number[], open: [] as number[], pay: [] as number[], retry: [] as number[] };
  const ready: string[] = [];
  for (let i = 0; i < N; i++) ready.push(await paidCheckout(times));
  for (let i = 0; i < N; i++) {
    times.direct.push(await direct());
    times.retry.push(await retry(ready[i]!));
  }
  const own = phases.get("own") ?? [];
  ctx.record("upstream direct GET backtest (signed)", times.direct);
  ctx.record("card: POST payUrl {checkout:true} (open checkout)", times.open);
  ctx.record("card: the person's payment on the page (test processor)", times.pay);
  ctx.record("gateway paid card: svc-payment-id retry (claim+proxy+deliver)", times.retry, {
    accept_p50_ms: pct(phases.get("accept") ?? [], 50).toFixed(1),
    upstream_p50_ms: pct(phases.get("upstream") ?? [], 50).toFixed(1),
    deliver_p50_ms: pct(phases.get("deliver") ?? [], 50).toFixed(1),
    own_p50_ms: pct(own, 50).toFixed(2),
    own_p99_ms: pct(own, 99).toFixed(2),
  });
  ctx.ratio("gateway overhead, paid card retry", "gateway paid card: svc-payment-id retry (claim+proxy+deliver)", "upstream direct GET backtest (signed)");
  await closeDatabase();
}
