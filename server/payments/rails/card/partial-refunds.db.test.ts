// Partial refunds of a card payment, as the seller makes them from the console: several, up to the charge, each its own
// processor refund (its own idempotency key) and ledger row. The attack is many refunds of one payment at once (a
// doubled click, two tabs, two instances): the sum refunded never passes the amount, in the ledger, on the payment
// and at the processor.
import { describe, expect, it } from "vitest";
import { db } from "../../../db/client";
import { listSellerRefunds } from "../../../payment-reports/list-seller-refunds";
import { getPaymentDetail } from "../../../payment-reports/get-payment-detail";
import { refundPayment } from "../../refund-payment";
import { usePaidCardCheckouts } from "../../../testing/card-payments";

const BACKTEST = "/api/v1/backtest/AAPL?years=2";
/** Each checkout: $0.50, paid by card and delivered. */
const { seller, deliveredCheckout, refund } = usePaidCardCheckouts(BACKTEST);

/** What the test processor refunded of this payment's charge, in cents. */
async function processorRefundedCents(paymentId: string): Promise<number> {
  const card = await db.cardPayment.findUniqueOrThrow({ where: { paymentId } });
  const refunds = await db.testProcessorObject.findMany({ where: { kind: "refund" } });
  return refunds
    .map((o) => o.data as { payment_intent: string; amount: number })
    .filter((r) => r.payment_intent === card.processorPaymentId)
    .reduce((s, r) => s + r.amount, 0);
}

async function ledgerRefunded(paymentId: string): Promise<bigint> {
  const rows = await db.ledgerEntry.findMany({ where: { paymentId, kind: "refund" } });
  return rows.reduce((s, r) => s + r.amountMicros, 0n);
}

describe("partial refunds of a card payment", () => {
  it("refunds in parts, each its own processor refund; partially refunded until the sum reaches the amount, then refunded", async () => {
    const id = await deliveredCheckout();
    const first = await refund(id, "0.20", "key-first-0001");
    expect(first).toMatchObject({ status: "partially_refunded", amountUsd: "0.200000", refundedUsd: "0.200000", remainingUsd: "0.300000" });
    expect(first.refundId).toMatch(/^re_/);
    const p = await db.payment.findUniqueOrThrow({ where: { id } });
    expect(p).toMatchObject({ status: "consumed", refundedMicros: 200_000n });
    const detail = await getPaymentDetail(seller.sellerId, id);
    expect(detail).toMatchObject({ partiallyRefunded: true, refundsInPart: true, refundedUsd: "0.200000", remainingUsd: "0.300000", refundable: true });
    expect(detail.timeline.map((s) => s.state)).toContain("partially refunded");
    const last = await refund(id, "0.30", "key-second-002");
    expect(last).toMatchObject({ status: "refunded", amountUsd: "0.300000", remainingUsd: "0.000000" });
    expect(last.refundId).not.toBe(first.refundId);
    expect(await processorRefundedCents(id)).toBe(50);
    const after = await getPaymentDetail(seller.sellerId, id);
    expect(after).toMatchObject({ status: "refunded", partiallyRefunded: false, refundable: false, money: { refundedUsd: "0.500000" } });
    expect(after.refunds.map((r) => [r.amountUsd, r.processorStatus])).toEqual([
      ["0.200000", "succeeded"],
      ["0.300000", "succeeded"],
    ]);
    // The refunds workspace lists each refund, with its own processor id and the payment's whole amount.
    const listed = (await listSellerRefunds(seller.sellerId, { rail: "card" })).refunds.filter((r) => r.paymentId === id);
    expect(listed.map((r) => r.amountUsd).sort()).toEqual(["0.200000", "0.300000"]);
    expect(new Set(listed.map((r) => r.processorRefundId)).size).toBe(2);
    expect(listed.every((r) => r.paymentAmountUsd === "0.500000")).toBe(true);
    await expect(refund(id, "0.01")).rejects.toMatchObject({ code: "invalid_request" });
  });

  it("forty refunds of $0.03 at once on a $0.50 payment: at most sixteen are made ($0.48), the rest refused; overshoot 0 everywhere", async () => {
    const id = await deliveredCheckout();
    const results = await Promise.allSettled(Array.from({ length: 40 }, (_, i) => refund(id, "0.03", `parallel-key-${i}`)));
    const made = results.filter((r) => r.status === "fulfilled").length;
    const refused = results.flatMap((r) => (r.status === "rejected" ? [r.reason as { code?: string; message?: string }] : []));
    // Refused only as refunds are refused (nothing left); under a loaded run a refund may also wait past its
    // transaction's time and fail whole, which moves no money.
    for (const e of refused) expect(e.code ?? e.message).toMatch(/^(payment_not_refundable|invalid_request|P2028)$|Transaction|timeout/i);
    expect(made).toBeGreaterThanOrEqual(1);
    expect(made).toBeLessThanOrEqual(16);
    expect(await ledgerRefunded(id)).toBe(BigInt(made) * 30_000n);
    expect((await db.payment.findUniqueOrThrow({ where: { id } })).refundedMicros).toBe(BigInt(made) * 30_000n);
    expect(await processorRefundedCents(id)).toBe(made * 3);
    expect(await db.cardRefund.count({ where: { paymentId: id } })).toBe(made);
    // Then everything at once, twenty times: one takes all that is left, the payment ends refunded, exactly its amount.
    await Promise.allSettled(Array.from({ length: 20 }, () => refund(id)));
    expect(await ledgerRefunded(id)).toBe(500_000n);
    expect(await processorRefundedCents(id)).toBe(50);
    expect((await db.payment.findUniqueOrThrow({ where: { id } })).status).toBe("refunded");
  });

  it("one submit is one refund: the same request key, sent five times at once, refunds once and returns that refund", async () => {
    const id = await deliveredCheckout();
    const same = await Promise.all(Array.from({ length: 5 }, () => refund(id, "0.10", "one-submit-key")));
    expect(same.filter((r) => !r.alreadyRefunded)).toHaveLength(1);
    // The repeats may answer before the processor did (no re_... id yet); there is one refund either way.
    expect(same.every((r) => r.amountUsd === "0.100000")).toBe(true);
    expect(await db.cardRefund.count({ where: { paymentId: id } })).toBe(1);
    expect(await ledgerRefunded(id)).toBe(100_000n);
    expect(await processorRefundedCents(id)).toBe(10);
  });

  it("refuses amounts the console's rule refuses: zero, fractions of a cent, more than is left, words; wallet rails take no amount", async () => {
    const id = await deliveredCheckout();
    for (const amount of ["0", "0.001", "0.51", "abc", "-1"]) await expect(refund(id, amount)).rejects.toMatchObject({ code: "invalid_request" });
    expect(await ledgerRefunded(id)).toBe(0n);
    const wallet = await db.payment.findFirst({ where: { sellerId: seller.sellerId, rail: "x402" } });
    if (wallet)
      await expect(refundPayment({ sellerId: seller.sellerId, actorId: null, paymentId: wallet.id, amount: "0.01" })).rejects.toMatchObject({
        code: "invalid_request",
      });
  });
});
