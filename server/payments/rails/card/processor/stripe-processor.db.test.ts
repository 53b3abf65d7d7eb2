// The Stripe adapter: the official SDK (stripe 23.1.0) pointed at a Stripe-shaped server on loopback
// (server/testing/stripe-fake.ts) through STRIPE_API_URL, with webhook events signed by the SDK. The whole card flow
// runs through it: a hosted checkout the human pays on Stripe's page, completed by a signed webhook; a refund of a
// failed delivery; the MPP card method with mppx's official client; an outage; and what Stripe was asked exactly
// (parameters, idempotency keys derived from our payment's reference, the API version of shared payment tokens).
import { Mppx as MppxClient, stripe as mppStripe } from "mppx/client";
import { Receipt } from "mppx";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import * as gatewayRoute from "../../../../../app/api/v1/[...path]/route";
import * as webhookRoute from "../../../../../app/webhooks/stripe/route";
import { getCatalog } from "../../../../catalog/catalog";
import { findSellerByHost } from "../../../../catalog/catalog.queries";
import { db } from "../../../../db/client";
import { resetEnvForTests, withEnvForTests } from "../../../../env";
import { openCheckoutFor, paymentStatus, retryWithPaymentId } from "../../../../testing/card";
import { callGateway, createGatewaySeller, serveRoutes, startFakeUpstream, type FakeUpstream, type GatewaySeller } from "../../../../testing/gateway";
import { startFakeStripe } from "../../../../testing/stripe-fake";
import { getCheckoutView } from "../checkout/checkout-view";
import { reconcileCardPayments } from "../reconcile-card-payments";
import { SPT_API_VERSION } from "./stripe-processor";
import { processorReference } from "./processor-reference";

const SECRET = "fake-upstream-secret-0123456789";
const WEBHOOK_SECRET = "whsec_testendpointsecret0123";
const BACKTEST = "/api/v1/backtest/AAPL?years=1";
let upstream: FakeUpstream;
let seller: GatewaySeller;
let stripe: Awaited<ReturnType<typeof startFakeStripe>>;
const saved: Record<string, string | undefined> = {};

beforeAll(async () => {
  upstream = await startFakeUpstream(SECRET);
  seller = await createGatewaySeller(upstream.url, { signingSecret: SECRET });
  stripe = await startFakeStripe(WEBHOOK_SECRET);
  const vars = {
    STRIPE_SECRET_KEY: "sk_test_storefront0123",
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    STRIPE_API_URL: stripe.url,
    STRIPE_NETWORK_ID: "profile_seller0123",
  };
  for (const [k, v] of Object.entries(vars)) {
    saved[k] = process.env[k];
    process.env[k] = v;
  }
  resetEnvForTests();
}, 60_000);

afterAll(async () => {
  for (const [k, v] of Object.entries(saved))
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  resetEnvForTests();
  await stripe?.stop();
  await upstream?.stop();
});

beforeEach(() => {
  upstream.state.mode = { status: 200 };
  stripe.state.failNext = 0;
});

function webhook(body: string, signature: string | null) {
  return webhookRoute.POST(
    new Request("http://localhost/webhooks/stripe", {
      method: "POST",
      headers: { host: "localhost", "content-type": "application/json", ...(signature ? { "stripe-signature": signature } : {}) },
      body,
    }),
    { params: Promise.resolve({}) },
  );
}

const requestsTo = (path: string | RegExp) => stripe.state.requests.filter((r) => (typeof path === "string" ? r.path === path : path.test(r.path)));

/** A checkout opened by the agent and paid by a human on Stripe's page, announced by a signed webhook. */
async function paidThroughStripe() {
  const opened = await openCheckoutFor(seller.host, BACKTEST);
  const card = await db.cardPayment.findUniqueOrThrow({ where: { paymentId: opened.paymentId } });
  stripe.paySession(card.checkoutId!);
  const e = stripe.event("checkout.session.completed", stripe.session(card.checkoutId!));
  expect((await webhook(e.body, e.signature)).status).toBe(200);
  return { ...opened, checkoutId: card.checkoutId!, event: e };
}

describe("hosted checkout through Stripe Checkout", () => {
  it("creates one Checkout Session per payment, named by our payment's reference (a digest of a signed id too long for Stripe) in its reference, metadata and idempotency key", async () => {
    const opened = await openCheckoutFor(seller.host, BACKTEST);
    const [create, ...more] = requestsTo("/v1/checkout/sessions").filter((r) => r.params.get("client_reference_id") === processorReference(opened.paymentId));
    expect(more).toHaveLength(0);
    // A 402's payment id is a signed challenge id, longer than Stripe takes as a reference: a digest goes instead.
    expect(opened.paymentId.length).toBeGreaterThan(200);
    expect(processorReference(opened.paymentId)).toMatch(/^payref_[\w-]{32}$/);
    expect(create!.headers["idempotency-key"]).toBe(`${processorReference(opened.paymentId)}:checkout`);
    expect(create!.headers.authorization).toBe("Bearer sk_test_storefront0123");
    const p = create!.params;
    expect(Object.fromEntries([...p].filter(([k]) => !/expires_at|product_data/.test(k)))).toEqual({
      mode: "payment",
      "line_items[0][quantity]": "1",
      "line_items[0][price_data][currency]": "usd",
      "line_items[0][price_data][unit_amount]": "50",
      client_reference_id: processorReference(opened.paymentId),
      "metadata[payment_id]": processorReference(opened.paymentId),
      "payment_intent_data[metadata][payment_id]": processorReference(opened.paymentId),
      "payment_intent_data[description]": "GET /api/v1/backtest/AAPL?years=1",
      success_url: `http://${seller.host}/checkout/${opened.paymentId}?returned=1`,
      cancel_url: `http://${seller.host}/checkout/${opened.paymentId}`,
    });
    expect(p.get("line_items[0][price_data][product_data][name]")).toContain("backtest");
    // Stripe takes 30 minutes to 24 hours; the configured 30 minutes is raised to 35.
    expect(Number(p.get("expires_at")) - Date.now() / 1000).toBeGreaterThan(34 * 60);
    const card = await db.cardPayment.findUniqueOrThrow({ where: { paymentId: opened.paymentId } });
    expect(card).toMatchObject({ processor: "stripe", checkoutUrl: `https://checkout.stripe.test/c/pay/${card.checkoutId}` });
    // Our page hands over to Stripe's: it shows the purchase and links to the session.
    const view = await getCheckoutView(await getCatalog((await findSellerByHost(seller.host))!), opened.paymentId);
    expect(view).toMatchObject({ state: "incomplete", processor: { kind: "stripe", testMode: true, cardOnPage: false, hostedUrl: card.checkoutUrl } });
    // POSTing payUrl again opens nothing new.
    await openCheckoutFor(seller.host, BACKTEST).then(() => undefined);
    expect(requestsTo("/v1/checkout/sessions").filter((r) => r.params.get("client_reference_id") === processorReference(opened.paymentId))).toHaveLength(1);
  });

  it("a signed checkout.session.completed completes it (card read back from Stripe); the retry is served", async () => {
    const paid = await paidThroughStripe();
    const status = await paymentStatus(seller.host, paid.paymentId);
    expect(status).toMatchObject({ status: "settled", card: { status: "complete", brand: "mastercard", last4: "4444" } });
    expect(status.transaction).toMatch(/^pi_/);
    // The session was read back with its payment intent and charge expanded, not trusted from the event.
    const read = requestsTo(`/v1/checkout/sessions/${paid.checkoutId}`).at(-1)!;
    expect([...read.params.values()]).toEqual(["payment_intent", "payment_intent.latest_charge.balance_transaction"]);
    // The fee is Stripe's, read from the charge's balance transaction (the fake's: 31 cents on $0.50), on the charge row.
    expect(await db.ledgerEntry.findMany({ where: { paymentId: paid.paymentId } })).toMatchObject([{ kind: "charge", feeMicros: 310_000n }]);
    const served = await retryWithPaymentId(seller.host, BACKTEST, paid.paymentId);
    expect(served.status).toBe(200);
    expect(served.headers.get("svc-billing")).toMatch(/rail=card;.*status=charged; tx=pi_/);
  });

  it("the email the payer gave Stripe Checkout is kept as the card payer's and the receipt mailed once, by webhook or on return", async () => {
    await withEnvForTests({ IDENTITY_DEV_OUTBOX: "1" }, async () => {
      const mails = (to: string) => db.outboxMessage.findMany({ where: { to } });
      // Announced by a signed webhook; the replayed event and the reconciler send nothing more.
      const email = `Stripe-Payer-${Date.now().toString(36)}@Example.com`;
      const opened = await openCheckoutFor(seller.host, BACKTEST);
      const card = await db.cardPayment.findUniqueOrThrow({ where: { paymentId: opened.paymentId } });
      stripe.paySession(card.checkoutId!, undefined, email);
      const e = stripe.event("checkout.session.completed", stripe.session(card.checkoutId!));
      expect((await webhook(e.body, e.signature)).status).toBe(200);
      expect((await webhook(e.body, e.signature)).status).toBe(200);
      await reconcileCardPayments();
      expect(await db.cardPayment.findUniqueOrThrow({ where: { paymentId: opened.paymentId } })).toMatchObject({
        payerEmail: email.toLowerCase(),
        receiptSentAt: expect.any(Date),
      });
      const sent = await mails(email.toLowerCase());
      expect(sent).toHaveLength(1);
      expect(sent[0]!.subject).toContain("$0.50");
      expect(sent[0]!.text).toContain(opened.paymentId);
      expect(sent[0]!.text).toContain("MASTERCARD ending 4444");
      // No webhook: the payer comes back to our page, which reads the session from Stripe.
      const other = `returned-${Date.now().toString(36)}@example.com`;
      const second = await openCheckoutFor(seller.host, BACKTEST);
      const secondCard = await db.cardPayment.findUniqueOrThrow({ where: { paymentId: second.paymentId } });
      stripe.paySession(secondCard.checkoutId!, undefined, other);
      const catalog = await getCatalog((await findSellerByHost(seller.host))!);
      await Promise.all([getCheckoutView(catalog, second.paymentId, { sync: true }), getCheckoutView(catalog, second.paymentId, { sync: true })]);
      expect((await db.cardPayment.findUniqueOrThrow({ where: { paymentId: second.paymentId } })).payerEmail).toBe(other);
      expect(await mails(other)).toHaveLength(1);
      // Paid without an email (an older session, or Stripe left it out): nobody to write to, nothing sent.
      const before = await db.outboxMessage.count();
      await paidThroughStripe();
      expect(await db.outboxMessage.count()).toBe(before);
    });
  });

  it("a bad signature is 400 and changes nothing; a replayed event is a no-op", async () => {
    const opened = await openCheckoutFor(seller.host, BACKTEST);
    const card = await db.cardPayment.findUniqueOrThrow({ where: { paymentId: opened.paymentId } });
    stripe.paySession(card.checkoutId!);
    const e = stripe.event("checkout.session.completed", stripe.session(card.checkoutId!));
    const reads = () => requestsTo(`/v1/checkout/sessions/${card.checkoutId}`).length;
    const before = reads();
    for (const [body, signature] of [
      [e.body, null],
      [e.body, "t=1,v1=deadbeef"],
      [e.body, stripe.event("checkout.session.completed", {}, { secret: "whsec_someoneelse0123" }).signature],
      [e.body.replace(opened.paymentId, "pay_0000000000000000"), e.signature],
    ] as const) {
      const res = await webhook(body, signature);
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ error: "invalid_request", reason: "invalid_webhook_signature" });
    }
    expect(reads()).toBe(before);
    expect((await db.payment.findUniqueOrThrow({ where: { id: opened.paymentId } })).status).toBe("incomplete");
    expect(await db.processorEvent.count({ where: { id: e.id } })).toBe(0);

    const first = await webhook(e.body, e.signature);
    expect(await first.json()).toEqual({ received: true, duplicate: false, type: "checkout.session.completed" });
    const afterFirst = reads();
    const replay = await webhook(e.body, e.signature);
    expect(replay.status).toBe(200);
    expect(await replay.json()).toEqual({ received: true, duplicate: true, type: "checkout.session.completed" });
    expect(reads()).toBe(afterFirst);
    expect(await db.ledgerEntry.count({ where: { paymentId: opened.paymentId } })).toBe(1);
    expect(await db.processorEvent.count({ where: { id: e.id } })).toBe(1);
  });

  it("a replayed old event does not overwrite a newer one (the last failed attempt stays the last)", async () => {
    const opened = await openCheckoutFor(seller.host, BACKTEST);
    const failed = (decline: string, message: string) =>
      stripe.event("payment_intent.payment_failed", {
        id: "pi_attempts",
        object: "payment_intent",
        status: "requires_payment_method",
        metadata: { payment_id: processorReference(opened.paymentId) },
        last_payment_error: { type: "card_error", code: "card_declined", decline_code: decline, message },
      });
    const first = failed("generic_decline", "Your card was declined.");
    const second = failed("insufficient_funds", "Your card has insufficient funds.");
    for (const e of [first, second, first]) expect((await webhook(e.body, e.signature)).status).toBe(200);
    expect((await paymentStatus(seller.host, opened.paymentId)).card.last_error).toEqual({
      code: "card_declined",
      decline_code: "insufficient_funds",
      message: "Your card has insufficient funds.",
    });
  });

  it("a failed delivery is refunded through the Refunds API, keyed by the payment id", async () => {
    const paid = await paidThroughStripe();
    upstream.state.mode = { status: 500, body: { error: "boom" } };
    const res = await retryWithPaymentId(seller.host, BACKTEST, paid.paymentId);
    expect(res.status).toBe(500);
    const p = await db.payment.findUniqueOrThrow({ where: { id: paid.paymentId }, include: { card: true } });
    expect(p.status).toBe("refunded");
    const refund = requestsTo("/v1/refunds").at(-1)!;
    expect(refund.headers["idempotency-key"]).toBe(`${processorReference(paid.paymentId)}:refund`);
    expect(Object.fromEntries(refund.params)).toMatchObject({
      payment_intent: p.transaction,
      amount: "50",
      reason: "requested_by_customer",
      "metadata[payment_id]": processorReference(paid.paymentId),
      "metadata[cause]": "delivery_failed",
    });
    expect(p.card).toMatchObject({ refundStatus: "succeeded", refundId: expect.stringMatching(/^re_/) });
  });

  it("a refund Stripe could not take now (an outage) stays pending and the reconciler sends it, once", async () => {
    const paid = await paidThroughStripe();
    upstream.state.mode = { status: 502 };
    stripe.state.failNext = 3; // the SDK's request and its two retries
    await retryWithPaymentId(seller.host, BACKTEST, paid.paymentId);
    expect(await db.cardPayment.findUniqueOrThrow({ where: { paymentId: paid.paymentId } })).toMatchObject({ refundStatus: "pending", refundId: null });
    expect((await db.payment.findUniqueOrThrow({ where: { id: paid.paymentId } })).status).toBe("refunded");
    // The reconciler leaves a refund alone for 30 s (the inline call may still be running); make it older.
    await db.$executeRaw`update card_refunds set updated_at = updated_at - interval '1 minute' where payment_id = ${paid.paymentId}`;
    await reconcileCardPayments();
    await reconcileCardPayments();
    const refunds = [...stripe.state.refunds.values()].filter((r) => (r.metadata as Record<string, string>).payment_id === processorReference(paid.paymentId));
    expect(refunds).toHaveLength(1);
    expect(await db.cardPayment.findUniqueOrThrow({ where: { paymentId: paid.paymentId } })).toMatchObject({
      refundStatus: "succeeded",
      refundId: refunds[0]!.id,
    });
  });

  it("Stripe unreachable: payUrl is 503 payment_provider_unavailable; a retry later opens the one session", async () => {
    const res402 = await callGateway(seller.host, BACKTEST);
    const { payment, card } = await res402.json();
    const { POST } = await import("../../../../../app/payments/[id]/pay/route");
    const post = () =>
      POST(new Request(card.payUrl, { method: "POST", headers: { host: seller.host, "content-type": "application/json" }, body: '{"checkout":true}' }), {
        params: Promise.resolve({ id: payment.id }),
      });
    stripe.state.failNext = 3;
    const down = await post();
    expect(down.status).toBe(503);
    expect((await down.json()).error).toBe("payment_provider_unavailable");
    expect((await db.payment.findUniqueOrThrow({ where: { id: payment.id } })).status).toBe("incomplete");
    const up = await post();
    expect(up.status).toBe(200);
    const tries = requestsTo("/v1/checkout/sessions").filter((r) => r.headers["idempotency-key"] === `${processorReference(payment.id)}:checkout`);
    expect(tries).toHaveLength(4);
    expect(stripe.state.sessions.size).toBe(new Set([...stripe.state.sessions.values()].map((s) => s.client_reference_id)).size);
  });

  it("an expired checkout is expired at Stripe by the reconciler and released; one paid at the last second completes", async () => {
    const late = await openCheckoutFor(seller.host, BACKTEST);
    const paidLate = await openCheckoutFor(seller.host, BACKTEST);
    stripe.paySession((await db.cardPayment.findUniqueOrThrow({ where: { paymentId: paidLate.paymentId } })).checkoutId!);
    await db.payment.updateMany({ where: { id: { in: [late.paymentId, paidLate.paymentId] } }, data: { expiresAt: new Date(Date.now() - 1000) } });
    await reconcileCardPayments();
    expect(await paymentStatus(seller.host, late.paymentId)).toMatchObject({ status: "released", reason: "checkout_expired", card: { status: "expired" } });
    const expire = requestsTo(/\/expire$/).find((r) => r.headers["idempotency-key"] === `${processorReference(late.paymentId)}:expire`);
    expect(expire?.path).toBe(`/v1/checkout/sessions/${(await db.cardPayment.findUniqueOrThrow({ where: { paymentId: late.paymentId } })).checkoutId}/expire`);
    expect((await paymentStatus(seller.host, paidLate.paymentId)).card.status).toBe("complete");
    const retry = await retryWithPaymentId(seller.host, BACKTEST, late.paymentId);
    expect(retry.status).toBe(409);
    expect((await retry.json()).error).toBe("payment_released");
  });
});

describe("the MPP card method through Stripe", () => {
  it("mppx's stripe charge: one round trip; a PaymentIntent confirmed with the token, the preview API version, our idempotency key", async () => {
    const server = await serveRoutes(seller.host, (p) => (p.startsWith("/api/v1/") ? gatewayRoute : null));
    try {
      const client = MppxClient.create({
        methods: [
          mppStripe.charge({ paymentMethod: "pm_card_visa", createToken: async () => stripe.grantToken("succeeds", { brand: "amex", last4: "0005" }) }),
        ],
        polyfill: false,
      });
      const res = await client.fetch(`${server.url}${BACKTEST}`);
      expect(res.status).toBe(200);
      const receipt = Receipt.fromResponse(res);
      expect(receipt).toMatchObject({ method: "stripe", status: "success" });
      const id = res.headers.get("svc-payment-id")!;
      const create = requestsTo("/v1/payment_intents").at(-1)!;
      expect(create.headers["idempotency-key"]).toBe(`${processorReference(id)}:mpp_charge`);
      expect(create.headers["stripe-version"]).toBe(SPT_API_VERSION);
      expect(Object.fromEntries(create.params)).toMatchObject({
        amount: "50",
        currency: "usd",
        confirm: "true",
        "automatic_payment_methods[enabled]": "true",
        "automatic_payment_methods[allow_redirects]": "never",
        shared_payment_granted_token: expect.stringMatching(/^spt_/),
        "metadata[payment_id]": processorReference(id),
        "metadata[machine_payment]": "true",
      });
      expect(await db.payment.findUniqueOrThrow({ where: { id }, include: { card: true } })).toMatchObject({
        status: "consumed",
        transaction: receipt.reference,
        card: { processor: "stripe", flow: "mpp", cardBrand: "amex", cardLast4: "0005" },
      });
      expect(create.params.get("expand[0]")).toBe("latest_charge.balance_transaction");
      expect(await db.ledgerEntry.findMany({ where: { paymentId: id } })).toMatchObject([{ kind: "charge", feeMicros: 310_000n }]);
    } finally {
      await server.stop();
    }
  });

  it("a card Stripe declines (402 card_error) fails the payment with the decline code and serves nothing", async () => {
    const server = await serveRoutes(seller.host, (p) => (p.startsWith("/api/v1/") ? gatewayRoute : null));
    try {
      const client = MppxClient.create({
        methods: [mppStripe.charge({ paymentMethod: "pm_card_visa", createToken: async () => stripe.grantToken("insufficient_funds") })],
        polyfill: false,
      });
      const res = await client.fetch(`${server.url}${BACKTEST}`);
      expect(res.status).toBe(402);
      const body = await res.json();
      expect(body).toMatchObject({ error: "settlement_failed", settlementReason: "card_declined: insufficient_funds" });
      expect(await db.payment.findUniqueOrThrow({ where: { id: body.payment_id }, include: { card: true } })).toMatchObject({
        status: "failed",
        card: { lastDeclineCode: "insufficient_funds", lastErrorMessage: "Your card has insufficient funds." },
      });
    } finally {
      await server.stop();
    }
  });
});
