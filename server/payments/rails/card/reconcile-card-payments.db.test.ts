// A crash between the card charge and the delivery is found and finished: delivered on the agent's retry, or
// refunded; never both, never neither. Also: checkouts the processor charged while our write was lost, checkouts that
// expire, and a real process killed while it held a paid checkout's delivery. The reconciler's card step is called
// directly (reconcileCardPayments, the card rail's `reconcile`), as the shared reconciler does on every pass.
import { spawn } from "node:child_process";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { db } from "../../../db/client";
import { withEnvForTests } from "../../../env";
import { openCheckoutFor, paymentStatus, payOnPage, retryWithPaymentId, TEST_CARD } from "../../../testing/card";
import { createGatewaySeller, startFakeUpstream, type FakeUpstream, type GatewaySeller } from "../../../testing/gateway";
import { railFor } from "..";
import { claimCheckoutDelivery, markCheckoutDelivered } from "./card.queries";
import { refundCardPayment } from "./refund-card-payment";
import { testProcessor } from "./processor/test-processor";
import { processorReference } from "./processor/processor-reference";

const SECRET = "fake-upstream-secret-0123456789";
const BACKTEST = "/api/v1/backtest/SPX?years=1";
let upstream: FakeUpstream;
let seller: GatewaySeller;
const reconcile = () => railFor("card").reconcile!();

beforeAll(async () => {
  upstream = await startFakeUpstream(SECRET);
  seller = await createGatewaySeller(upstream.url, { signingSecret: SECRET });
}, 60_000);

afterAll(async () => {
  await upstream?.stop();
});

beforeEach(() => {
  upstream.state.mode = { status: 200 };
});

async function paid() {
  const opened = await openCheckoutFor(seller.host, BACKTEST);
  await payOnPage(seller.sellerId, opened.paymentId, TEST_CARD.success);
  return opened;
}

/** Pretend the delivery window (24 h by default) has passed since the card was charged. */
const pastWindow = (id: string) => db.$executeRaw`update payments set settled_at = settled_at - interval '2 days' where id = ${id}`;

async function ledgerNet(paymentId: string): Promise<bigint> {
  const rows = await db.ledgerEntry.findMany({ where: { paymentId } });
  return rows.reduce((s, r) => s + (r.kind === "charge" ? r.amountMicros : -r.amountMicros), 0n);
}

/** Run one retry in a child process that dies right after claiming the delivery (GATEWAY_FAULT=exit_after_lock). */
function crashWhileDelivering(paymentId: string): Promise<number | null> {
  const tsx = path.join(process.cwd(), "node_modules", "tsx", "dist", "cli.mjs");
  const child = spawn(process.execPath, [tsx, "--conditions=react-server", path.join(import.meta.dirname, "..", "..", "..", "testing", "crash-child.ts")], {
    env: {
      ...process.env,
      NODE_ENV: "test",
      GATEWAY_FAULT: "exit_after_lock",
      CRASH_HOST: seller.host,
      CRASH_PATH: BACKTEST,
      CRASH_PROOF_HEADERS: JSON.stringify({ "svc-payment-id": paymentId }),
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout.on("data", (d) => (out += d));
  child.stderr.on("data", (d) => (out += d));
  return new Promise((resolve) => child.on("exit", (code) => (code === 86 ? resolve(code) : (console.error(out), resolve(code)))));
}

describe("a crash between the card charge and the delivery", () => {
  it("the processor charged but our write was lost: the reconciler finds it paid, and the retry delivers", async () => {
    const opened = await openCheckoutFor(seller.host, BACKTEST);
    const card = await db.cardPayment.findUniqueOrThrow({ where: { paymentId: opened.paymentId } });
    // What a process that died right after the processor's answer had done: the charge, nothing else.
    const charged = await testProcessor.onPage!.confirmCard(
      card.checkoutId!,
      { number: "4242424242424242", expMonth: 12, expYear: 2040, cvc: "123" },
      `${processorReference(opened.paymentId)}:confirm:0`,
    );
    expect(charged.type).toBe("succeeded");
    expect((await paymentStatus(seller.host, opened.paymentId)).card.status).toBe("incomplete");
    // A checkout nobody reported on for two minutes is asked about.
    await db.$executeRaw`update card_payments set updated_at = updated_at - interval '5 minutes' where payment_id = ${opened.paymentId}`;
    await reconcile();
    expect(await paymentStatus(seller.host, opened.paymentId)).toMatchObject({ status: "settled", card: { status: "complete", last4: "4242" } });
    expect((await retryWithPaymentId(seller.host, BACKTEST, opened.paymentId)).status).toBe(200);
    expect(await ledgerNet(opened.paymentId)).toBe(500_000n);
  });

  it("a process killed while delivering: its lease holds the payment (no refund, no second delivery); after it, the retry delivers once", async () => {
    const opened = await paid();
    const callsBefore = upstream.state.calls;
    expect(await crashWhileDelivering(opened.paymentId)).toBe(86);
    const held = await db.payment.findUniqueOrThrow({ where: { id: opened.paymentId } });
    expect(held.status).toBe("settled");
    expect(held.lockedUntil!.getTime()).toBeGreaterThan(Date.now());
    // While the lease lives: another retry is told to wait, and the reconciler does not refund even past the window.
    // (A copy waits for the holder first, up to the upstream's deadline and 5 s: a short deadline keeps that wait short.)
    const busy = await withEnvForTests({ GATEWAY_UPSTREAM_TIMEOUT_MS: "200" }, () => retryWithPaymentId(seller.host, BACKTEST, opened.paymentId));
    expect(busy.status).toBe(409);
    expect((await busy.json()).error).toBe("payment_in_progress");
    await pastWindow(opened.paymentId);
    await reconcile();
    expect((await db.payment.findUniqueOrThrow({ where: { id: opened.paymentId } })).status).toBe("settled");
    // The lease runs out (PAYMENT_LEASE_SECONDS): the agent's retry takes the delivery over.
    await db.$executeRaw`update payments set locked_until = (now() at time zone 'UTC') - interval '1 second' where id = ${opened.paymentId}`;
    await db.$executeRaw`update payments set settled_at = now() at time zone 'UTC' where id = ${opened.paymentId}`;
    const served = await retryWithPaymentId(seller.host, BACKTEST, opened.paymentId);
    expect(served.status).toBe(200);
    expect(upstream.state.calls - callsBefore).toBe(1);
    expect((await db.payment.findUniqueOrThrow({ where: { id: opened.paymentId } })).status).toBe("consumed");
    await reconcile();
    expect(await ledgerNet(opened.paymentId)).toBe(500_000n);
    expect((await db.cardPayment.findUniqueOrThrow({ where: { paymentId: opened.paymentId } })).refundStatus).toBeNull();
  }, 30_000);

  it("the undelivered refund is fenced: a payment claimed for delivery between the scan and the refund is not refunded", async () => {
    const opened = await paid();
    await pastWindow(opened.paymentId);
    // The claim lands between the reconciler's scan and its refund statement.
    const lease = await claimCheckoutDelivery(seller.sellerId, opened.paymentId, 60);
    expect(lease).not.toBeNull();
    const refunded = await refundCardPayment({
      paymentId: opened.paymentId,
      sellerId: seller.sellerId,
      cause: "undelivered",
      reason: "test",
      requireUnleased: true,
    });
    expect(refunded).toBe(false);
    expect((await db.payment.findUniqueOrThrow({ where: { id: opened.paymentId } })).status).toBe("settled");
    // And a delivery under a lost lease can neither deliver nor refund.
    expect(await markCheckoutDelivered(opened.paymentId, "2000-01-01 00:00:00")).toBe(false);
    expect(
      await refundCardPayment({
        paymentId: opened.paymentId,
        sellerId: seller.sellerId,
        cause: "delivery_failed",
        reason: "test",
        lease: "2000-01-01 00:00:00",
      }),
    ).toBe(false);
    expect(await markCheckoutDelivered(opened.paymentId, lease!)).toBe(true);
    expect(await ledgerNet(opened.paymentId)).toBe(500_000n);
  });

  it("never retried within the delivery window: refunded in full by the reconciler, and a late retry is payment_refunded", async () => {
    const opened = await paid();
    await reconcile();
    expect((await db.payment.findUniqueOrThrow({ where: { id: opened.paymentId } })).status).toBe("settled");
    await pastWindow(opened.paymentId);
    await Promise.all([reconcile(), reconcile(), reconcile()]);
    const p = await db.payment.findUniqueOrThrow({ where: { id: opened.paymentId }, include: { card: true } });
    expect(p.status).toBe("refunded");
    expect(p.card).toMatchObject({ refundStatus: "succeeded", refundCause: "undelivered", refundId: expect.stringMatching(/^re_test_/) });
    expect(await ledgerNet(opened.paymentId)).toBe(0n);
    expect(await db.ledgerEntry.count({ where: { paymentId: opened.paymentId, kind: "refund" } })).toBe(1);
    const late = await retryWithPaymentId(seller.host, BACKTEST, opened.paymentId);
    expect(late.status).toBe(409);
    expect((await late.json()).error).toBe("payment_refunded");
  });

  it("retries racing the reconciler's refund: every payment ends delivered or refunded, never both, never neither", async () => {
    const payments = await Promise.all(Array.from({ length: 6 }, () => paid()));
    for (const p of payments) await pastWindow(p.paymentId);
    const callsBefore = upstream.state.calls;
    const answers = await Promise.all([
      ...payments.flatMap((p) =>
        Array.from({ length: 5 }, () => retryWithPaymentId(seller.host, BACKTEST, p.paymentId).then((r) => ({ id: p.paymentId, status: r.status }))),
      ),
      reconcile().then(() => null),
      reconcile().then(() => null),
    ]);
    let delivered = 0;
    for (const p of payments) {
      const row = await db.payment.findUniqueOrThrow({ where: { id: p.paymentId }, include: { card: true } });
      const served = answers.filter((a) => a?.id === p.paymentId && a.status === 200).length;
      expect(["consumed", "refunded"]).toContain(row.status);
      if (row.status === "consumed") {
        delivered++;
        expect(served).toBe(1);
        expect(row.card!.refundStatus).toBeNull();
        expect(await ledgerNet(p.paymentId)).toBe(500_000n);
      } else {
        expect(served).toBe(0);
        expect(row.card!.refundStatus).toBe("succeeded");
        expect(await ledgerNet(p.paymentId)).toBe(0n);
      }
    }
    expect(upstream.state.calls - callsBefore).toBe(delivered);
  });
});

describe("checkouts that end unpaid", () => {
  it("an expired checkout is released (nothing charged); a later payment attempt and the retry find it closed", async () => {
    const opened = await openCheckoutFor(seller.host, BACKTEST);
    await db.payment.update({ where: { id: opened.paymentId }, data: { expiresAt: new Date(Date.now() - 1000) } });
    await reconcile();
    expect(await paymentStatus(seller.host, opened.paymentId)).toMatchObject({ status: "released", reason: "checkout_expired", card: { status: "expired" } });
    expect(await payOnPage(seller.sellerId, opened.paymentId, TEST_CARD.success)).toMatchObject({ type: "stale" });
    expect(await db.ledgerEntry.count({ where: { paymentId: opened.paymentId } })).toBe(0);
    const retry = await retryWithPaymentId(seller.host, BACKTEST, opened.paymentId);
    expect(retry.status).toBe(409);
    expect((await retry.json()).error).toBe("payment_released");
  });

  it("a checkout whose processor session was never created (a crash right after payUrl's state move) expires too", async () => {
    const opened = await openCheckoutFor(seller.host, BACKTEST);
    await db.cardPayment.update({ where: { paymentId: opened.paymentId }, data: { checkoutId: null } });
    await db.payment.update({ where: { id: opened.paymentId }, data: { expiresAt: new Date(Date.now() - 1000) } });
    await reconcile();
    expect((await db.payment.findUniqueOrThrow({ where: { id: opened.paymentId } })).status).toBe("released");
  });
});
