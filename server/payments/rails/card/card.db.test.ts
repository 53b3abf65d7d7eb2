// The card rail end to end, in process against real PostgreSQL, a fake upstream and the built-in test processor: the
// 402's card offer, the hosted checkout (the agent opens it, a human pays on our page, the agent polls statusUrl and
// retries with svc-payment-id), the automatic refund of a failed delivery, the MPP card method with mppx's official
// client in one round trip, and the concurrency and isolation rules. The Stripe adapter has its own test
// (server/payments/rails/card/processor/stripe-processor.db.test.ts); the browser flow is e2e/ui/card-checkout.spec.ts.
import { Challenge, Credential, Receipt } from "mppx";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import * as gatewayRoute from "../../../../app/api/v1/[...path]/route";
import * as manifestRoute from "../../../../app/manifest.json/route";
import * as openapiRoute from "../../../../app/openapi.json/route";
import * as payRoute from "../../../../app/payments/[id]/pay/route";
import { db } from "../../../db/client";
import { getCatalog } from "../../../catalog/catalog";
import { findSellerByHost } from "../../../catalog/catalog.queries";
import { authenticateOnPage } from "./checkout/pay-on-page";
import { getCheckoutView } from "./checkout/checkout-view";
import { refundCardPaymentForSeller } from "./refund-card-payment";
import { testProcessor } from "./processor/test-processor";
import { mppCardClient, mppCardCredential, openCheckoutFor, paymentStatus, payOnPage, retryWithPaymentId, TEST_CARD } from "../../../testing/card";
import { callGateway, createGatewaySeller, serveRoutes, startFakeUpstream, type FakeUpstream, type GatewaySeller } from "../../../testing/gateway";
import { processorReference } from "./processor/processor-reference";

const SECRET = "fake-upstream-secret-0123456789";
const BACKTEST = "/api/v1/backtest/AAPL?years=2";
const AAPL = "/api/v1/aggregates/AAPL?from=2024-05-01&to=2024-05-31";
let upstream: FakeUpstream;
let seller: GatewaySeller;
let other: GatewaySeller;

beforeAll(async () => {
  upstream = await startFakeUpstream(SECRET);
  seller = await createGatewaySeller(upstream.url, { signingSecret: SECRET });
  other = await createGatewaySeller(upstream.url, { signingSecret: SECRET });
}, 60_000);

afterAll(async () => {
  await upstream?.stop();
});

beforeEach(() => {
  upstream.state.mode = { status: 200 };
});

const call = (path: string, headers: Record<string, string> = {}) => callGateway(seller.host, path, { headers });

async function ledger(paymentId: string) {
  const rows = await db.ledgerEntry.findMany({ where: { paymentId }, orderBy: { createdAt: "asc" } });
  return { rows, net: rows.reduce((s, r) => s + (r.kind === "charge" ? r.amountMicros : -r.amountMicros), 0n) };
}

/** A checkout opened by the agent and paid by a human with the success card. */
async function paidCheckout(path = BACKTEST) {
  const opened = await openCheckoutFor(seller.host, path);
  await payOnPage(seller.sellerId, opened.paymentId, TEST_CARD.success);
  return opened;
}

describe("the 402 offers card from $0.50", () => {
  it("carries the card block (payUrl, statusUrl), lists card as a rail and adds a stripe charge challenge beside evm", async () => {
    const res = await call(BACKTEST);
    expect(res.status).toBe(402);
    const body = await res.json();
    expect(body.payment.rails).toEqual(["x402", "mpp", "card", "credits"]);
    expect(body.card).toEqual({
      payUrl: `http://${seller.host}/payments/${body.payment.id}/pay`,
      statusUrl: `http://${seller.host}/payments/${body.payment.id}`,
    });
    const challenges = Challenge.fromHeadersList(res.headers);
    expect(challenges.map((c) => c.method)).toEqual(["evm", "stripe"]);
    expect(challenges[1]).toMatchObject({ intent: "charge", realm: seller.host });
    expect(challenges[1]!.request).toMatchObject({
      amount: "50",
      currency: "usd",
      externalId: body.payment.id,
      methodDetails: { networkId: "profile_test_storefront", paymentMethodTypes: ["card"] },
    });
  });

  it("offers no card below $0.50: no card block, no stripe challenge, and payUrl of such a payment is amount_below_card_minimum", async () => {
    const res = await call(AAPL);
    const body = await res.json();
    expect(body.payment.rails).toEqual(["x402", "mpp", "credits"]);
    expect(body.card).toBeUndefined();
    expect(Challenge.fromHeadersList(res.headers).map((c) => c.method)).toEqual(["evm"]);
    const pay = await payRoute.POST(
      new Request(`http://${seller.host}/payments/${body.payment.id}/pay`, {
        method: "POST",
        headers: { host: seller.host, "content-type": "application/json" },
        body: JSON.stringify({ checkout: true }),
      }),
      { params: Promise.resolve({ id: body.payment.id }) },
    );
    expect(pay.status).toBe(400);
    expect((await pay.json()).error).toBe("amount_below_card_minimum");
  });
});

describe("discovery lists the card rail", () => {
  it("in /manifest.json (how to pay by card) and /openapi.json (an offer from $0.50, the svc-payment-id scheme)", async () => {
    const get = async (route: { GET: (req: Request, seg: { params: Promise<Record<string, string>> }) => Promise<Response> }, path: string) =>
      (await route.GET(new Request(`http://${seller.host}${path}`, { headers: { host: seller.host } }), { params: Promise.resolve({}) })).json();
    const manifest = await get(manifestRoute, "/manifest.json");
    expect(manifest.payment.protocols).toEqual(["x402", "x402-batch", "mpp", "card", "credits"]);
    expect(manifest.payment.card).toMatchObject({
      minimumUsd: "0.50",
      processor: "test",
      testMode: true,
      hostedCheckout: { body: { checkout: true }, retryHeader: "svc-payment-id" },
      mpp: { method: "stripe", intent: "charge", networkId: "profile_test_storefront", tokenHeader: "SVC-Agent-Authorization: Bearer spt_..." },
    });
    const openapi = await get(openapiRoute, "/openapi.json?path=/api/v1/backtest/{ticker}");
    const backtest = openapi.paths["/api/v1/backtest/{ticker}"].get["x-payment-info"];
    expect(backtest.protocols).toEqual(["x402", "mpp", "card", "credits"]);
    expect(backtest.offers).toContainEqual(expect.objectContaining({ protocol: "card", method: "stripe", currency: "usd", amount: "50" }));
    expect(openapi.components.securitySchemes.card).toMatchObject({ type: "apiKey", in: "header", name: "svc-payment-id" });
    const cheap = await get(openapiRoute, "/openapi.json?path=/api/v1/aggregates/{ticker}");
    expect(cheap.paths["/api/v1/aggregates/{ticker}"].get["x-payment-info"].protocols).toEqual(["x402", "mpp", "credits"]);
  });
});

describe("hosted checkout", () => {
  // Issue 23 changed the last step (resumable delivery): a second retry was `payment_consumed`; it is now served again.
  it("incomplete -> complete: retried early it is payment_incomplete; paid, the retry is served and charged once, then served again", async () => {
    const opened = await openCheckoutFor(seller.host, BACKTEST);
    expect(opened.checkoutUrl).toBe(`http://${seller.host}/checkout/${opened.paymentId}`);
    expect(await paymentStatus(seller.host, opened.paymentId)).toMatchObject({
      status: "incomplete",
      rail: "card",
      complete: false,
      card: { status: "incomplete", flow: "checkout", checkout_url: opened.checkoutUrl, last_error: null },
    });
    // Before the human paid: payment_incomplete, pointing at statusUrl, and no new 402 minted.
    const early = await retryWithPaymentId(seller.host, BACKTEST, opened.paymentId);
    expect(early.status).toBe(402);
    expect(early.headers.get("payment-required")).toBeNull();
    expect(await early.json()).toMatchObject({ error: "payment_incomplete", statusUrl: opened.statusUrl, payment_id: opened.paymentId });

    const callsBefore = upstream.state.calls;
    await payOnPage(seller.sellerId, opened.paymentId, TEST_CARD.success);
    const status = await paymentStatus(seller.host, opened.paymentId);
    expect(status).toMatchObject({ status: "settled", complete: true, card: { status: "complete", brand: "visa", last4: "4242" } });
    expect(status.transaction).toMatch(/^pi_test_/);
    // The test processor reports its fee as Stripe test mode would: 2.9% + 30 cents of $0.50 is 31 cents.
    expect((await ledger(opened.paymentId)).rows).toMatchObject([{ kind: "charge", amountMicros: 500_000n, feeMicros: 310_000n, rail: "card" }]);
    expect(upstream.state.calls).toBe(callsBefore);

    const served = await retryWithPaymentId(seller.host, BACKTEST, opened.paymentId);
    expect(served.status).toBe(200);
    expect(await served.json()).toMatchObject({ source: "fake-upstream" });
    expect(served.headers.get("svc-billing")).toMatch(/rail=card;.*amount_usd=0\.500000; status=charged; tx=pi_test_/);
    expect(served.headers.get("svc-payment-id")).toBe(opened.paymentId);
    expect(served.headers.get("cache-control")).toBe("private, no-store");
    // The upstream never sees the payment id.
    expect(upstream.state.lastHeaders["svc-payment-id"]).toBeUndefined();
    expect(upstream.state.calls).toBe(callsBefore + 1);
    expect((await paymentStatus(seller.host, opened.paymentId)).card.status).toBe("consumed");

    const again = await retryWithPaymentId(seller.host, BACKTEST, opened.paymentId);
    expect(again.status).toBe(200);
    expect(again.headers.get("svc-billing")).toMatch(/rail=card;.*status=charged; replay=true; charged_at=.*; tx=pi_test_/);
    // Issue 33: the upstream runs once per charge (a replay is served the kept answer); it was once per answer served.
    expect(upstream.state.calls).toBe(callsBefore + 1);
    expect((await ledger(opened.paymentId)).net).toBe(500_000n);
  });

  it("a decline is a clear failed attempt: nothing charged, statusUrl names it, the human may try another card", async () => {
    const opened = await openCheckoutFor(seller.host, BACKTEST);
    await payOnPage(seller.sellerId, opened.paymentId, TEST_CARD.decline);
    const declined = await paymentStatus(seller.host, opened.paymentId);
    expect(declined).toMatchObject({
      status: "incomplete",
      card: { status: "incomplete", last_error: { code: "card_declined", decline_code: "generic_decline", message: "Your card was declined." } },
    });
    await payOnPage(seller.sellerId, opened.paymentId, TEST_CARD.insufficientFunds);
    expect((await paymentStatus(seller.host, opened.paymentId)).card.last_error).toMatchObject({ decline_code: "insufficient_funds" });
    expect((await ledger(opened.paymentId)).rows).toEqual([]);
    expect((await retryWithPaymentId(seller.host, BACKTEST, opened.paymentId)).status).toBe(402);
    // A third card, on the third attempt, pays.
    await payOnPage(seller.sellerId, opened.paymentId, TEST_CARD.success);
    expect(await paymentStatus(seller.host, opened.paymentId)).toMatchObject({ status: "settled", card: { status: "complete", last_error: null } });
  });

  it("takes Stripe's published test cards only: a real card number is declined and never stored, only brand and last four are", async () => {
    const opened = await openCheckoutFor(seller.host, BACKTEST);
    // A number that passes the Luhn check but is not one of Stripe's test cards.
    await payOnPage(seller.sellerId, opened.paymentId, "4111 1111 1111 1111");
    expect((await paymentStatus(seller.host, opened.paymentId)).card.last_error).toMatchObject({ code: "card_declined", decline_code: "test_mode_live_card" });
    await payOnPage(seller.sellerId, opened.paymentId, "4242 4242 4242 4241");
    expect((await paymentStatus(seller.host, opened.paymentId)).card.last_error).toMatchObject({ code: "incorrect_number" });
    await payOnPage(seller.sellerId, opened.paymentId, TEST_CARD.success);
    const everywhere = JSON.stringify(
      [
        await db.cardPayment.findMany({ where: { paymentId: opened.paymentId } }),
        await db.testProcessorObject.findMany(),
        await db.payment.findUnique({ where: { id: opened.paymentId } }),
      ],
      (_k, v) => (typeof v === "bigint" ? v.toString() : v),
    );
    for (const number of ["4242424242424242", "4111111111111111", "4242424242424241"]) expect(everywhere).not.toContain(number);
    expect(await db.cardPayment.findUniqueOrThrow({ where: { paymentId: opened.paymentId } })).toMatchObject({ cardBrand: "visa", cardLast4: "4242" });
  });

  it("3-D Secure: the page's confirmation step; a failed authentication is a failed attempt, a completed one pays", async () => {
    const opened = await openCheckoutFor(seller.host, BACKTEST);
    await payOnPage(seller.sellerId, opened.paymentId, TEST_CARD.threeDSecure);
    expect((await paymentStatus(seller.host, opened.paymentId)).card.status).toBe("requires_action");
    await authenticateOnPage({ sellerId: seller.sellerId, paymentId: opened.paymentId, approve: false });
    expect(await paymentStatus(seller.host, opened.paymentId)).toMatchObject({
      status: "incomplete",
      card: { status: "incomplete", last_error: { code: "payment_intent_authentication_failure" } },
    });
    await payOnPage(seller.sellerId, opened.paymentId, TEST_CARD.threeDSecure);
    await authenticateOnPage({ sellerId: seller.sellerId, paymentId: opened.paymentId, approve: true });
    expect(await paymentStatus(seller.host, opened.paymentId)).toMatchObject({ status: "settled", card: { status: "complete", last4: "3184" } });
  });

  it("a double click charges once: concurrent submissions of one form, and a second POST of payUrl, open and pay one checkout", async () => {
    const res = await call(BACKTEST);
    const { payment, card } = await res.json();
    const post = () =>
      payRoute.POST(
        new Request(card.payUrl, {
          method: "POST",
          headers: { host: seller.host, "content-type": "application/json" },
          body: JSON.stringify({ checkout: true }),
        }),
        { params: Promise.resolve({ id: payment.id }) },
      );
    const opens = await Promise.all(Array.from({ length: 10 }, post));
    expect(opens.map((r) => r.status)).toEqual(Array(10).fill(200));
    const cards = await db.cardPayment.findMany({ where: { paymentId: payment.id } });
    expect(cards).toHaveLength(1);
    const sessions = (await db.testProcessorObject.findMany({ where: { kind: "checkout_session" } })).filter(
      (o) => (o.data as { payment_id: string }).payment_id === payment.id,
    );
    expect(sessions).toHaveLength(1);

    await Promise.all(Array.from({ length: 5 }, () => payOnPage(seller.sellerId, payment.id, TEST_CARD.success, { attempt: 0 })));
    expect((await ledger(payment.id)).rows).toHaveLength(1);
    const intents = (await db.testProcessorObject.findMany({ where: { kind: "payment_intent" } })).filter(
      (o) => (o.data as { metadata: { payment_id?: string } }).metadata.payment_id === payment.id,
    );
    expect(intents.map((o) => (o.data as { status: string }).status)).toEqual(["succeeded"]);
  });

  // Issue 23 changed this rule (resumable delivery): retries after the delivery were `payment_consumed` ("... are served
  // once"); they are now served again, and the card is still charged once.
  it("fifty concurrent retries with one svc-payment-id: one delivery, the others served again or told to wait; charged once", async () => {
    const opened = await paidCheckout();
    const callsBefore = upstream.state.calls;
    const answers = await Promise.all(Array.from({ length: 50 }, () => retryWithPaymentId(seller.host, BACKTEST, opened.paymentId)));
    const served = answers.filter((a) => a.status === 200);
    expect(served.filter((a) => !a.headers.get("svc-billing")!.includes("replay=true"))).toHaveLength(1);
    expect(answers.filter((a) => a.status === 409)).toHaveLength(50 - served.length);
    for (const a of answers.filter((x) => x.status === 409)) expect((await a.json()).error).toBe("payment_in_progress");
    // Issue 33: the upstream runs once per charge (a replay is served the kept answer); it was once per answer served.
    expect(upstream.state.calls - callsBefore).toBe(1);
    expect((await db.payment.findUniqueOrThrow({ where: { id: opened.paymentId } })).status).toBe("consumed");
    expect((await ledger(opened.paymentId)).rows).toHaveLength(1);
  });

  it("another seller's payment is unknown everywhere: its retry, its payUrl and its checkout page are 404", async () => {
    const opened = await paidCheckout();
    const retry = await callGateway(other.host, BACKTEST, { headers: { "svc-payment-id": opened.paymentId } });
    expect(retry.status).toBe(404);
    expect((await retry.json()).error).toBe("payment_unknown");
    const pay = await payRoute.POST(
      new Request(`http://${other.host}/payments/${opened.paymentId}/pay`, {
        method: "POST",
        headers: { host: other.host, "content-type": "application/json" },
        body: JSON.stringify({ checkout: true }),
      }),
      { params: Promise.resolve({ id: opened.paymentId }) },
    );
    expect(pay.status).toBe(404);
    expect((await pay.json()).error).toBe("payment_unknown");
    const otherCatalog = await getCatalog((await findSellerByHost(other.host))!);
    expect(await getCheckoutView(otherCatalog, opened.paymentId)).toBeNull();
    await expect(payOnPage(other.sellerId, opened.paymentId)).rejects.toMatchObject({ code: "not_found" });
    // Still deliverable to its own seller.
    expect((await retryWithPaymentId(seller.host, BACKTEST, opened.paymentId)).status).toBe(200);
  });

  it("a paid checkout buys exactly its request: another request is payment_request_mismatch; a malformed id is payment_unknown", async () => {
    const opened = await paidCheckout();
    const other = await retryWithPaymentId(seller.host, "/api/v1/backtest/AAPL?years=3", opened.paymentId);
    expect(other.status).toBe(409);
    expect((await other.json()).error).toBe("payment_request_mismatch");
    // Reordered and defaulted query parameters are not the same request; the exact one is.
    expect((await retryWithPaymentId(seller.host, BACKTEST, opened.paymentId)).status).toBe(200);
    const bad = await retryWithPaymentId(seller.host, BACKTEST, "pay_../../etc");
    expect(bad.status).toBe(404);
    const refused = await bad.json();
    expect(refused.error).toBe("payment_unknown");
    // Its description of an id is the real one's: a signed challenge id, its length within the range it states.
    expect(refused.detail).toContain("pay_<signed terms>.<signature>");
    expect(opened.paymentId).toMatch(/^pay_[\w-]+\.[\w-]{22}$/);
    const [, low, high] = /about (\d+) to (\d+) characters/.exec(refused.detail) ?? [];
    expect(opened.paymentId.length).toBeGreaterThanOrEqual(Number(low));
    expect(opened.paymentId.length).toBeLessThanOrEqual(Number(high));
  });

  it("svc-payment-id together with another rail's proof is refused with 400 and nothing is charged", async () => {
    const opened = await paidCheckout();
    const res = await retryWithPaymentId(seller.host, BACKTEST, opened.paymentId, { "x-payment": "eyJ4NDAyVmVyc2lvbiI6MX0" });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: "invalid_request", reason: "multiple_payment_proofs" });
    expect((await db.payment.findUniqueOrThrow({ where: { id: opened.paymentId } })).status).toBe("settled");
  });
});

describe("automatic refund when a paid delivery fails", () => {
  for (const [name, mode, expectStatus] of [
    ["an upstream 500", { status: 500, body: { error: "boom" } }, 500],
    ["an upstream 404", { status: 404, body: { error: "unknown_ticker" } }, 404],
    ["an upstream 403", { status: 403, body: { error: "not_included" } }, 403],
    ["an upstream timeout", { status: 200, delayMs: 1500 }, 504],
  ] as const) {
    it(`${name}: refunded in full (processor refund, ledger balanced, statusUrl says so); a retry is payment_refunded`, async () => {
      const opened = await paidCheckout();
      upstream.state.mode = mode;
      const res = await withTimeout(() => retryWithPaymentId(seller.host, BACKTEST, opened.paymentId));
      expect(res.status).toBe(expectStatus);
      expect(res.headers.get("svc-billing")).toMatch(/rail=card;.*status=refunded; refunded_usd=0\.500000; charged_usd=0\.000000/);
      const p = await db.payment.findUniqueOrThrow({ where: { id: opened.paymentId }, include: { card: true } });
      expect(p.status).toBe("refunded");
      expect(p.card).toMatchObject({ refundStatus: "succeeded", refundCause: "delivery_failed" });
      expect(p.card!.refundId).toMatch(/^re_test_/);
      const l = await ledger(opened.paymentId);
      expect(l.rows.map((r) => r.kind)).toEqual(["charge", "refund"]);
      expect(l.net).toBe(0n);
      expect(await paymentStatus(seller.host, opened.paymentId)).toMatchObject({
        status: "refunded",
        complete: false,
        refund: { amount: "0.500000" },
        card: { status: "refunded", refund: { status: "succeeded", cause: "delivery_failed" } },
      });
      upstream.state.mode = { status: 200 };
      const again = await retryWithPaymentId(seller.host, BACKTEST, opened.paymentId);
      expect(again.status).toBe(409);
      expect((await again.json()).error).toBe("payment_refunded");
    });
  }

  it("the processor refund is idempotent: asked again (the reconciler after an outage), it is the same refund", async () => {
    const opened = await paidCheckout();
    upstream.state.mode = { status: 503 };
    await retryWithPaymentId(seller.host, BACKTEST, opened.paymentId);
    const first = await db.cardPayment.findUniqueOrThrow({ where: { paymentId: opened.paymentId } });
    const again = await testProcessor.refund({
      paymentId: opened.paymentId,
      paymentIntentId: first.processorPaymentId!,
      amountCents: 50,
      reason: "delivery_failed",
      idempotencyKey: `${processorReference(opened.paymentId)}:refund`,
    });
    expect(again).toEqual({ type: "refunded", refundId: first.refundId, status: "succeeded" });
    expect(
      (await db.testProcessorObject.findMany({ where: { kind: "refund" } })).filter(
        (o) => (o.data as { payment_intent: string }).payment_intent === first.processorPaymentId,
      ),
    ).toHaveLength(1);
  });
});

describe("the seller's refund of a card payment", () => {
  it("refunds a delivered card payment once (ledger row, audit row, processor refund); again is the first result; another seller's is not found", async () => {
    const opened = await paidCheckout();
    expect((await retryWithPaymentId(seller.host, BACKTEST, opened.paymentId)).status).toBe(200);
    const clicks = await Promise.all(
      Array.from({ length: 5 }, () => refundCardPaymentForSeller({ sellerId: seller.sellerId, actorId: null, paymentId: opened.paymentId })),
    );
    expect(clicks.filter((c) => !c.alreadyRefunded)).toHaveLength(1);
    expect(clicks.every((c) => c.status === "refunded" && c.amountUsd === "0.500000")).toBe(true);
    expect((await ledger(opened.paymentId)).net).toBe(0n);
    expect(await db.auditLog.count({ where: { targetId: opened.paymentId, action: "payment.refund" } })).toBe(1);
    expect(await db.cardPayment.findUniqueOrThrow({ where: { paymentId: opened.paymentId } })).toMatchObject({
      refundStatus: "succeeded",
      refundCause: "seller",
    });
    await expect(refundCardPaymentForSeller({ sellerId: other.sellerId, actorId: null, paymentId: opened.paymentId })).rejects.toMatchObject({
      code: "not_found",
    });
    const unpaid = await openCheckoutFor(seller.host, BACKTEST);
    await expect(refundCardPaymentForSeller({ sellerId: seller.sellerId, actorId: null, paymentId: unpaid.paymentId })).rejects.toMatchObject({
      code: "payment_not_refundable",
    });
  });
});

describe("the MPP card method", () => {
  it("mppx's stripe charge pays and is served in one round trip; the token is charged after the upstream answered", async () => {
    const server = await serveRoutes(seller.host, (p) => (p.startsWith("/api/v1/") ? gatewayRoute : null));
    try {
      const issued: string[] = [];
      const res = await (await mppCardClient(TEST_CARD.success, { issued })).fetch(`${server.url}${BACKTEST}`);
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ source: "fake-upstream" });
      const receipt = Receipt.fromResponse(res);
      expect(receipt).toMatchObject({ status: "success", method: "stripe" });
      expect(receipt.reference).toMatch(/^pi_test_/);
      expect(res.headers.get("svc-billing")).toMatch(/rail=card;.*status=charged; tx=pi_test_/);
      const id = res.headers.get("svc-payment-id")!;
      const p = await db.payment.findUniqueOrThrow({ where: { id }, include: { card: true } });
      expect(p).toMatchObject({ status: "consumed", rail: "card", transaction: receipt.reference });
      expect(p.card).toMatchObject({ flow: "mpp", processor: "test", cardBrand: "visa", cardLast4: "4242" });
      expect((await ledger(id)).rows).toMatchObject([{ kind: "charge", amountMicros: 500_000n, feeMicros: 310_000n }]);
      expect(upstream.state.lastHeaders.authorization).toBeUndefined();
      expect(issued).toHaveLength(1);
      // One token pays once: a fresh 402 answered with the same token is refused before anything runs.
      const callsBefore = upstream.state.calls;
      const replay = await call(BACKTEST, { authorization: await mppCardCredential(await call(BACKTEST), issued[0]!) });
      expect(replay.status).toBe(409);
      expect(await replay.json()).toMatchObject({ error: "payment_consumed", type: "https://paymentauth.org/problems/invalid-challenge" });
      expect(upstream.state.calls).toBe(callsBefore);
    } finally {
      await server.stop();
    }
  });

  it("takes the token from SVC-Agent-Authorization (SERVICE.md part 4) and a declined card fails without serving the data", async () => {
    const spt = await testProcessor.issueSharedPaymentToken({
      card: "4000000000000002",
      maxAmountCents: 50,
      currency: "usd",
      expiresAt: new Date(Date.now() + 600_000),
    });
    const res402 = await call(BACKTEST);
    const authorization = await mppCardCredential(res402, "");
    const res = await call(BACKTEST, { authorization, "svc-agent-authorization": `Bearer ${spt}` });
    const body = await res.json();
    expect(res.status).toBe(402);
    expect(body).toMatchObject({ error: "settlement_failed", settlementReason: "card_declined: generic_decline" });
    expect(body.source).toBeUndefined();
    expect(res.headers.get("payment-receipt")).toBeNull();
    const p = await db.payment.findUniqueOrThrow({ where: { id: body.payment_id }, include: { card: true } });
    expect(p.status).toBe("failed");
    expect(p.card).toMatchObject({ flow: "mpp", lastDeclineCode: "generic_decline" });
    expect((await ledger(p.id)).rows).toEqual([]);
  });

  it("an upstream 403 charges the token nothing (released): only a 2xx or 3xx confirms a PaymentIntent", async () => {
    upstream.state.mode = { status: 403, body: { error: "not_included" } };
    const spt = await testProcessor.issueSharedPaymentToken({
      card: "4242424242424242",
      maxAmountCents: 50,
      currency: "usd",
      expiresAt: new Date(Date.now() + 600_000),
    });
    const res = await call(BACKTEST, { authorization: await mppCardCredential(await call(BACKTEST), spt) });
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ error: "not_included" });
    expect(res.headers.get("payment-receipt")).toBeNull();
    expect(res.headers.get("svc-billing")).toMatch(/status=released; charged_usd=0\.000000; reason=upstream_rejected; upstream_status=403/);
    const token = await db.testProcessorObject.findUniqueOrThrow({ where: { id: spt } });
    expect((token.data as { deactivated_reason: string | null }).deactivated_reason).toBeNull();
    expect((await ledger(res.headers.get("svc-payment-id")!)).rows).toEqual([]);
  });

  it("an upstream failure charges the token nothing (released), and two different tokens in the two places are refused", async () => {
    upstream.state.mode = { status: 502 };
    const spt = await testProcessor.issueSharedPaymentToken({
      card: "4242424242424242",
      maxAmountCents: 50,
      currency: "usd",
      expiresAt: new Date(Date.now() + 600_000),
    });
    const res = await call(BACKTEST, { authorization: await mppCardCredential(await call(BACKTEST), spt) });
    expect(res.status).toBe(502);
    expect(res.headers.get("svc-billing")).toContain("status=released");
    const token = await db.testProcessorObject.findUniqueOrThrow({ where: { id: spt } });
    expect((token.data as { deactivated_reason: string | null }).deactivated_reason).toBeNull();
    upstream.state.mode = { status: 200 };
    const both = await call(BACKTEST, {
      authorization: await mppCardCredential(await call(BACKTEST), spt),
      "svc-agent-authorization": "Bearer spt_other_token",
    });
    expect(both.status).toBe(402);
    expect(await both.json()).toMatchObject({
      error: "payment_required",
      reason: "malformed_credential",
      type: "https://paymentauth.org/problems/malformed-credential",
    });
  });

  it("a Payment credential of a method no rail takes is refused as method_unsupported with a fresh challenge", async () => {
    const res402 = await call(BACKTEST);
    const [stripeChallenge] = Challenge.fromHeadersList(res402.headers).filter((c) => c.method === "stripe");
    const res = await call(BACKTEST, { authorization: Credential.serialize({ challenge: { ...stripeChallenge!, method: "tempo" }, payload: {} }) });
    expect(res.status).toBe(402);
    expect(res.headers.get("content-type")).toContain("application/problem+json");
    expect(await res.json()).toMatchObject({
      error: "payment_required",
      reason: "method_unsupported",
      type: "https://paymentauth.org/problems/method-unsupported",
    });
    expect(Challenge.fromHeadersList(res.headers).map((c) => c.method)).toEqual(["evm", "stripe"]);
  });
});

/** A credential for the stripe challenge of this 402 (as mppx's client serialises it), carrying `spt` as its token. */
/** The gateway's upstream deadline is 15 s by default; the timeout case runs with a short one. */
async function withTimeout<T>(fn: () => Promise<T>): Promise<T> {
  const { withEnvForTests } = await import("../../../env");
  return withEnvForTests({ GATEWAY_UPSTREAM_TIMEOUT_MS: "500" }, fn);
}
