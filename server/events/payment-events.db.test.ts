// Payment, purchase and credit events, made by the database's triggers in the transaction of the change, whichever code
// path made it: the gateway's paid calls (x402 and the card checkout), failed deliveries, plan purchases and draws on
// prepaid credit, against real PostgreSQL and a real anvil chain. Each event's object is the API's own answer at that
// moment (GET /payments/{id}, the purchase answer, entitlements' plan balance), and validates against its contract.
import { beforeAll, describe, expect, it } from "vitest";
import * as purchaseRoute from "../../app/plans/[planId]/purchase/route";
import { flushCaptures } from "../payments/rails/credits/capture-queue";
import { EVENTS, type EventType } from "../contracts/events";
import { db } from "../db/client";
import { openCheckoutFor, paymentStatus, payOnPage, retryWithPaymentId } from "../testing/card";
import { callGateway, payChallenge, payOn, useGatewayStack, type FakeUpstream, type GatewaySeller } from "../testing/gateway";
import { getJson, registerAnonymous, routedStore } from "../testing/identity-harness";
import { setCreditThreshold } from "./manage-credit-thresholds";
import { metrics } from "../observability/metrics";
import { renderEvent } from "./render-event";

const SECRET = "fake-upstream-secret-0123456789";
const AAPL = "/api/v1/aggregates/AAPL?from=2024-03-01&to=2024-03-29";
const BACKTEST = "/api/v1/backtest/AAPL?years=1";
let upstream: FakeUpstream;
let seller: GatewaySeller;
let planId: string;

useGatewayStack(SECRET, (s) => ({ upstream, seller } = s));

beforeAll(async () => {
  planId = (await db.plan.findFirstOrThrow({ where: { sellerId: seller.sellerId, slug: "research-credits" } })).id;
}, 60_000);

/** The seller's events about `subject` (or all), in order, rendered as consumers get them (links on the test host). */
async function events(subject?: string) {
  const rows = await db.event.findMany({ where: { sellerId: seller.sellerId, ...(subject ? { subjectId: subject } : {}) }, orderBy: { seq: "asc" } });
  return rows.map((r) => {
    const e = renderEvent(r, `http://${seller.host}`);
    // Every event's data is what its contract says (docs/events.md describes the same).
    expect(EVENTS[e.type as EventType].data.safeParse(e.data).error).toBeUndefined();
    return e;
  });
}

async function paidCall(rail: "x402" | "mpp", payer: number, path = AAPL) {
  const challenge = await callGateway(seller.host, path);
  expect(challenge.status).toBe(402);
  const paymentId = (await challenge.clone().json()).payment.id as string;
  const res = await callGateway(seller.host, path, { headers: await payOn(rail, challenge, payer) });
  return { res, paymentId };
}

describe("payment events", () => {
  it("a paid call emits payment.settled once, its object the payment as GET /payments/{id} shows it", async () => {
    upstream.state.mode = { status: 200 };
    // The metrics read the gateway's own answer (svc-billing, Server-Timing): counted for the real paid path too.
    const count = async (series: string) => {
      const line = (await metrics().registry.metrics()).split("\n").find((l) => l.startsWith(`${series} `));
      return line ? Number(line.slice(series.length + 1)) : 0;
    };
    const PAID = 'storefront_paid_calls_total{rail="x402",operation="aggregates",outcome="charged"}';
    const SETTLED = 'storefront_settlement_duration_seconds_count{rail="x402"}';
    const [paidBefore, settleBefore] = [await count(PAID), await count(SETTLED)];
    for (const [rail, payer] of [
      ["x402", 1],
      ["mpp", 2],
    ] as const) {
      const { res, paymentId } = await paidCall(rail, payer);
      expect(res.status).toBe(200);
      const evs = await events(paymentId);
      expect(evs.map((e) => e.type)).toEqual(["payment.settled"]);
      expect(evs[0]!.id).toMatch(/^evt_[0-9a-f]{32}$/);
      expect(evs[0]!.data.object).toEqual(await paymentStatus(seller.host, paymentId));
      expect(evs[0]!.data.object).toMatchObject({ status: "consumed", rail, complete: true });
    }
    expect(await count(PAID)).toBe(paidBefore + 1);
    expect(await count(SETTLED)).toBe(settleBefore + 1);
  });

  it("an upstream failure emits payment.released with the reason, and no charge event", async () => {
    upstream.state.mode = { status: 503 };
    const { res, paymentId } = await paidCall("x402", 3);
    expect(res.status).toBe(503);
    const evs = await events(paymentId);
    expect(evs.map((e) => e.type)).toEqual(["payment.released"]);
    expect(evs[0]!.data.object).toEqual(await paymentStatus(seller.host, paymentId));
    expect(evs[0]!.data.object).toMatchObject({ status: "released", reason: "upstream_error", complete: false });
    upstream.state.mode = { status: 200 };
  });

  it("a card checkout paid then refunded after a failed delivery: settled, then refunded with the card refund as it stood", async () => {
    upstream.state.mode = { status: 200 };
    const opened = await openCheckoutFor(seller.host, BACKTEST);
    expect(await events(opened.paymentId)).toEqual([]);
    await payOnPage(seller.sellerId, opened.paymentId);
    const settled = await events(opened.paymentId);
    expect(settled.map((e) => e.type)).toEqual(["payment.settled"]);
    expect(settled[0]!.data.object).toEqual(await paymentStatus(seller.host, opened.paymentId));
    expect(settled[0]!.data.object).toMatchObject({ status: "settled", rail: "card", card: { status: "complete", brand: "visa", last4: "4242" } });

    upstream.state.mode = { status: 500 };
    expect((await retryWithPaymentId(seller.host, BACKTEST, opened.paymentId)).status).toBe(500);
    upstream.state.mode = { status: 200 };
    const after = await events(opened.paymentId);
    expect(after.map((e) => e.type)).toEqual(["payment.settled", "payment.refunded"]);
    const now = await paymentStatus(seller.host, opened.paymentId);
    const refunded = after[1]!.data.object as typeof now;
    // The refund's own transaction wrote it pending (the processor confirmed it afterwards): the event says what the
    // transaction left, the status page what is true now.
    expect(refunded.card.refund).toMatchObject({ status: "pending", cause: "delivery_failed", refunded_at: null });
    expect(now.card.refund).toMatchObject({ status: "succeeded", cause: "delivery_failed" });
    expect({ ...refunded, card: { ...refunded.card, refund: null } }).toEqual({ ...now, card: { ...now.card, refund: null } });
    expect(refunded).toMatchObject({ status: "refunded", refund: { amount: "0.500000" } });
  });
});

describe("payment events carry the status vocabulary", () => {
  it("each payment event's object has the phase and next step GET /payments/{id} gave at that moment", async () => {
    upstream.state.mode = { status: 200 };
    const paid = await paidCall("x402", 5);
    expect((await events(paid.paymentId)).map((e) => [e.type, e.data.object])).toEqual([
      ["payment.settled", expect.objectContaining({ phase: "paid", next: "retry_same_request" })],
    ]);
    upstream.state.mode = { status: 404 };
    const released = await paidCall("mpp", 5);
    expect((await events(released.paymentId)).map((e) => [e.type, e.data.object])).toEqual([
      ["payment.released", expect.objectContaining({ phase: "released", next: "pay_again", reason: "upstream_rejected" })],
    ]);
    upstream.state.mode = { status: 200 };
    const opened = await openCheckoutFor(seller.host, BACKTEST);
    await payOnPage(seller.sellerId, opened.paymentId);
    upstream.state.mode = { status: 500 };
    expect((await retryWithPaymentId(seller.host, BACKTEST, opened.paymentId)).status).toBe(500);
    upstream.state.mode = { status: 200 };
    expect(
      (await events(opened.paymentId)).map((e) => [e.type, (e.data.object as { phase: string; next: string }).phase, (e.data.object as { next: string }).next]),
    ).toEqual([
      ["payment.settled", "paid", "retry_same_request"],
      ["payment.refunded", "refunded", "pay_again"],
    ]);
  });
});

describe("purchase and credit events", () => {
  const store = () => routedStore(seller.host);
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
  const purchase = (body: unknown, headers: Record<string, string>) =>
    purchaseRoute.POST(
      new Request(`http://${seller.host}/plans/${planId}/purchase`, {
        method: "POST",
        headers: { host: seller.host, "content-type": "application/json", ...headers },
        body: JSON.stringify(body),
      }),
      { params: Promise.resolve({ planId }) },
    );

  it("a purchase emits plan.purchased (the purchase answer) and payment.settled; draws emit no payment event; low, then exhausted", async () => {
    upstream.state.mode = { status: 200 };
    const user = await db.sellerUser.findFirstOrThrow({ where: { sellerId: seller.sellerId } });
    await setCreditThreshold({ sellerId: seller.sellerId, actorId: user.id, planId, thresholdUsd: "4.95" });
    const agent = await registerAnonymous(store());
    const challenge = await purchase({ amountUsd: "5.00" }, bearer(agent.token));
    const res = await purchase({ amountUsd: "5.00" }, { ...bearer(agent.token), ...(await payChallenge(challenge, 4, { maxAmountPerPayment: "$100" })) });
    expect(res.status).toBe(200);
    const answer = await res.json();
    const bought = await events(answer.payment.id);
    expect(bought.map((e) => e.type).sort()).toEqual(["payment.settled", "plan.purchased"]);
    expect(bought.find((e) => e.type === "plan.purchased")!.data.object).toEqual(answer);

    // $5.00 at $0.02 a call: the 3rd call leaves $4.94, under the $4.95 line.
    const before = await db.event.count({ where: { sellerId: seller.sellerId } });
    for (let i = 0; i < 2; i++) expect((await callGateway(seller.host, AAPL, { headers: bearer(agent.token) })).status).toBe(200);
    await flushCaptures();
    expect(await db.event.count({ where: { sellerId: seller.sellerId } })).toBe(before);
    expect((await callGateway(seller.host, AAPL, { headers: bearer(agent.token) })).status).toBe(200);
    const low = (await events(planId)).filter((e) => e.type.startsWith("credit."));
    expect(low.map((e) => e.type)).toEqual(["credit.low"]);
    const ent = await getJson(store(), "/agent/entitlements", bearer(agent.token));
    expect(low[0]!.data).toEqual({ object: ent.body.plans[0], holder: { credential: agent.credentialId, human: null }, threshold_usd: "4.950000" });
    expect(low[0]!.data.object).toMatchObject({ balanceUsd: "4.940000" });
    // Below the line already: no second credit.low. The last $0.02 reaches zero: credit.exhausted.
    await db.creditGrant.updateMany({ where: { credentialId: agent.credentialId }, data: { remainingMicros: 20_000n } });
    expect((await callGateway(seller.host, AAPL, { headers: bearer(agent.token) })).status).toBe(200);
    expect((await callGateway(seller.host, AAPL, { headers: bearer(agent.token) })).status).toBe(402);
    const credit = (await events(planId)).filter((e) => e.type.startsWith("credit."));
    expect(credit.map((e) => e.type)).toEqual(["credit.low", "credit.exhausted"]);
    expect(credit[1]!.data).toMatchObject({ object: { balanceUsd: "0.000000" }, holder: { credential: agent.credentialId } });
    await flushCaptures();
    const draws = await db.payment.findMany({ where: { sellerId: seller.sellerId, rail: "credits" }, select: { id: true } });
    expect(draws.length).toBeGreaterThanOrEqual(4);
    expect(await db.event.count({ where: { subjectId: { in: draws.map((d) => d.id) } } })).toBe(0);
  });
});
