// The one pipeline behind every paid entry point: what the data call always had (rate limits, refused proofs recorded
// for the funnel, a refusal's fresh challenge only where the refusal asks for one) holds for plan purchases and the
// free quote too; and the payment row's chain and token come from the rail that locks it, never from generic code.
import { describe, expect, it } from "vitest";
import * as purchaseRoute from "../../app/plans/[planId]/purchase/route";
import * as quoteRoute from "../../app/vendor/agent/quote/route";
import * as payRoute from "../../app/payments/[id]/pay/route";
import { flushChallengeCounts } from "../analytics/challenge-counts";
import { NETWORK, USDC_ADDRESS } from "../chain/config";
import { db } from "../db/client";
import { withEnvForTests } from "../env";
import { payOnPage, TEST_CARD } from "../testing/card";
import { callGateway, createGatewaySeller, payChallenge, useGatewayStack, type FakeUpstream, type GatewaySeller } from "../testing/gateway";
import { registerAnonymous, routedStore } from "../testing/identity-harness";

const SECRET = "pipeline-upstream-secret-0123456789";
const AAPL = "/api/v1/aggregates/AAPL?from=2024-08-01&to=2024-08-30";
const BACKTEST = "/api/v1/backtest/AAPL?years=1";
let upstream: FakeUpstream;
let seller: GatewaySeller;

useGatewayStack(SECRET, (s) => ({ upstream, seller } = s));
async function planOf(s: GatewaySeller): Promise<string> {
  return (await db.plan.findFirstOrThrow({ where: { sellerId: s.sellerId, slug: "research-credits" } })).id;
}

function purchase(s: GatewaySeller, planId: string, headers: Record<string, string>): Promise<Response> {
  return purchaseRoute.POST(
    new Request(`http://${s.host}/plans/${planId}/purchase`, {
      method: "POST",
      headers: { host: s.host, "content-type": "application/json", ...headers },
      body: JSON.stringify({ amountUsd: "5.00" }),
    }),
    { params: Promise.resolve({ planId }) },
  );
}

function quote(s: GatewaySeller, headers: Record<string, string> = {}): Promise<Response> {
  return quoteRoute.POST(
    new Request(`http://${s.host}/vendor/agent/quote`, {
      method: "POST",
      headers: { host: s.host, "content-type": "application/json", ...headers },
      body: JSON.stringify({ goal: "daily AAPL bars" }),
    }),
    { params: Promise.resolve({}) },
  );
}

async function awayFromMinuteBoundary(marginMs = 10_000): Promise<void> {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < marginMs) await new Promise((r) => setTimeout(r, left + 50));
}

const refusals = (sellerId: string, operationKey: string) => db.paymentRefusal.findMany({ where: { sellerId, operationKey }, orderBy: { id: "asc" } });

describe("rate limits, for every entry point", () => {
  // Issue 22: a request with a valid bearer spends its credential's budget (payer), an unpaid one its client's.
  it("a plan purchase spends its buyer's budget (the bearer's credential), the quote's unpaid call the client's, as a data call does", async () => {
    await withEnvForTests({ RATE_LIMIT_PAYER_PER_MINUTE: "2", RATE_LIMIT_CLIENT_PER_MINUTE: "3" }, async () => {
      await awayFromMinuteBoundary();
      const s = await createGatewaySeller(upstream.url, { signingSecret: SECRET });
      // Registrations are unauthenticated: two units of the client's budget of 3.
      const agent = await registerAnonymous(routedStore(s.host));
      const other = await registerAnonymous(routedStore(s.host));
      const planId = await planOf(s);
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++) statuses.push((await purchase(s, planId, { authorization: `Bearer ${agent.token}` })).status);
      expect(statuses).toEqual([402, 402, 429]);
      const purchaseLimited = await purchase(s, planId, { authorization: `Bearer ${agent.token}` });
      expect(await purchaseLimited.json()).toMatchObject({ error: "rate_limit_exceeded", scope: "payer" });
      // The purchases spent none of the client's budget: one quote still gets its 402, the next is over.
      expect((await quote(s)).status).toBe(402);
      const limited = await quote(s);
      expect(limited.status).toBe(429);
      expect(await limited.json()).toMatchObject({ error: "rate_limit_exceeded", scope: "client" });
      // The same client's budget is spent: a valid bearer is still answered (its purchase's 402), never refused for it.
      expect((await purchase(s, planId, { authorization: `Bearer ${other.token}` })).status).toBe(402);
    });
  });
});

describe("refusals, for every entry point", () => {
  it("a purchase's refused proof is recorded for the funnel; a malformed svc-payment-id gets no fresh challenge (its own refusal says so)", async () => {
    const agent = await registerAnonymous(routedStore(seller.host));
    const planId = await planOf(seller);
    // Issue 22: a 402 writes no row; the challenges issued are counted (flushed here to read them).
    const challengesIssued = async () => {
      await flushChallengeCounts();
      return (await db.challengeCount.aggregate({ where: { sellerId: seller.sellerId }, _sum: { count: true } }))._sum.count ?? 0;
    };
    const challengesBefore = await challengesIssued();
    const res = await purchase(seller, planId, { authorization: `Bearer ${agent.token}`, "svc-payment-id": "not-a-payment-id" });
    expect(res.status).toBe(404);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(res.headers.get("www-authenticate")).toBeNull();
    expect(await res.json()).toMatchObject({ error: "payment_unknown" });
    expect(await challengesIssued()).toBe(challengesBefore);
    expect((await refusals(seller.sellerId, "plan_purchase")).map((r) => [r.rail, r.code])).toEqual([["card", "payment_unknown"]]);
  });

  it("a malformed MPP credential on a purchase is answered in MPP's terms, with a fresh challenge for the purchase", async () => {
    const agent = await registerAnonymous(routedStore(seller.host));
    const planId = await planOf(seller);
    const res = await purchase(seller, planId, { "svc-agent-authorization": `Bearer ${agent.token}`, authorization: "Payment %%%" });
    expect(res.status).toBe(402);
    expect(res.headers.get("content-type")).toMatch(/^application\/problem\+json/);
    expect(res.headers.get("www-authenticate")).toMatch(/^Payment /);
    expect(await res.json()).toMatchObject({ error: "payment_required", reason: "malformed_credential", purchase: { plan: { id: planId } } });
  });

  it("the quote's refused wallet proof is recorded for the funnel", async () => {
    const res = await quote(seller, { "payment-signature": "%%%" });
    expect(res.status).toBe(402);
    expect((await refusals(seller.sellerId, "advisor_quote")).map((r) => [r.rail, r.reason])).toContainEqual(["x402", "malformed_payment"]);
  });
});

describe("the payment row's chain and token", () => {
  it("are written by the rail that locks it: none on the 402, USDC on Base for x402, none for a card checkout", async () => {
    const res402 = await callGateway(seller.host, AAPL);
    // Issue 22 (stateless challenges): the 402 writes no row at all; the lock writes it, with the rail's chain and token.
    const challenged = { id: res402.headers.get("svc-payment-id")! };
    expect(await db.payment.findUnique({ where: { id: challenged.id } })).toBeNull();
    const paid = await callGateway(seller.host, AAPL, { headers: await payChallenge(res402, 4) });
    expect(paid.status).toBe(200);
    expect(await db.payment.findUniqueOrThrow({ where: { id: challenged.id } })).toMatchObject({ rail: "x402", network: NETWORK, asset: USDC_ADDRESS });

    const card402 = await callGateway(seller.host, BACKTEST);
    const { payment, card } = await card402.json();
    await payRoute.POST(
      new Request(card.payUrl, {
        method: "POST",
        headers: { host: seller.host, "content-type": "application/json" },
        body: JSON.stringify({ checkout: true }),
      }),
      { params: Promise.resolve({ id: payment.id }) },
    );
    await payOnPage(seller.sellerId, payment.id, TEST_CARD.success);
    expect(await db.payment.findUniqueOrThrow({ where: { id: payment.id } })).toMatchObject({ rail: "card", status: "settled", network: null, asset: null });
  });
});
