// A card payment refunded in parts is reported truthfully everywhere a refund is: the agent's GET /payments/{id}
// (amount_refunded, each refund, still paid until the whole amount is back), the webhook events (one payment.refunded
// per refund, like Stripe's charge.refunded, each valid against its contract and equal to what the status said at
// that moment), and the seller's CSV files (the amount refunded in dollars and cents and every refund, not the latest).
import { describe, expect, it } from "vitest";
import { EVENTS } from "../contracts/events";
import { db } from "../db/client";
import { renderEvent } from "../events/render-event";
import { paymentStatus } from "../testing/card";
import { usePaidCardCheckouts } from "../testing/card-payments";
import { CSV_COLUMNS, exportSellerPayments } from "./export-seller-payments";
import { exportSellerRefunds, REFUND_CSV_COLUMNS } from "./export-seller-refunds";

const BACKTEST = "/api/v1/backtest/AAPL?years=3";
/** Each checkout: $0.50, paid by card and delivered. */
const { seller, deliveredCheckout, refund } = usePaidCardCheckouts(BACKTEST);

/** The payment's refund events as a webhook receiver gets them; each must parse against its contract. */
async function refundEvents(paymentId: string) {
  const rows = await db.event.findMany({ where: { subjectId: paymentId, type: "payment.refunded" }, orderBy: { seq: "asc" } });
  return rows.map((r) => {
    const e = renderEvent(r, `http://${seller.host}`);
    const parsed = EVENTS["payment.refunded"].data.safeParse(e.data);
    expect(parsed.error).toBeUndefined();
    return parsed.data!.object;
  });
}

async function csv(gen: AsyncGenerator<string>, columns: readonly string[]) {
  let text = "";
  for await (const chunk of gen) text += chunk;
  const [header, ...lines] = text.trimEnd().split("\r\n");
  expect(header).toBe(columns.join(","));
  // No field here holds a comma or a quote: split plainly.
  return lines.map((l) => Object.fromEntries(l.split(",").map((v, i) => [columns[i], v])));
}

describe("a card payment refunded in parts", () => {
  it("GET /payments/{id} says partially refunded, then refunded; one payment.refunded per refund; the CSVs list each refund", async () => {
    const id = await deliveredCheckout();
    expect(await paymentStatus(seller.host, id)).toMatchObject({ status: "consumed", amount_refunded: "0.000000", refunds: [], refund: null });
    expect(await refundEvents(id)).toEqual([]);

    await refund(id, "0.20", "key-report-0001");
    const partly = await paymentStatus(seller.host, id);
    // Still paid (the rest was not given back): the status and phase stay, what came back is said beside them.
    expect(partly).toMatchObject({ status: "consumed", phase: "paid", complete: true, amount: "0.500000", amount_refunded: "0.200000", refund: null });
    expect(partly.refunds).toEqual([{ amount: "0.200000", transaction: null, log_index: null, refunded_at: expect.any(String) }]);
    const first = await refundEvents(id);
    expect(first).toHaveLength(1);
    expect(first[0]).toMatchObject({ status: "consumed", amount_refunded: "0.200000", refunds: partly.refunds, refund: null });

    await refund(id, "0.30", "key-report-0002");
    const all = await paymentStatus(seller.host, id);
    expect(all).toMatchObject({ status: "refunded", phase: "refunded", amount_refunded: "0.500000", refund: { amount: "0.500000" } });
    expect(all.refunds.map((r: { amount: string }) => r.amount)).toEqual(["0.200000", "0.300000"]);
    expect(all.refund.refunded_at).toBe(all.refunds[1].refunded_at);
    // Written once per refund: the second refund's event, and no more; the first is as it was.
    const both = await refundEvents(id);
    expect(both).toHaveLength(2);
    expect(both[0]).toEqual(first[0]);
    expect(both[1]).toMatchObject({ status: "refunded", amount_refunded: "0.500000", refunds: all.refunds, refund: all.refund });
    // The processor confirmed after the refund's transaction: only the card block's refund status differs from now.
    expect({ ...both[1], card: null }).toEqual({ ...all, card: null });

    const [row] = (await csv(exportSellerPayments(seller.sellerId, { rail: "card" }), CSV_COLUMNS)).filter((r) => r["Payment ID"] === id);
    const reIds = (await db.cardRefund.findMany({ where: { paymentId: id }, orderBy: { seq: "asc" } })).map((r) => r.processorRefundId);
    expect(reIds.every((r) => r?.startsWith("re_"))).toBe(true);
    const at = all.refunds.map((r: { refunded_at: string }) => `${r.refunded_at.slice(0, 10)} ${r.refunded_at.slice(11, 19)}`);
    expect(row).toMatchObject({
      Amount: "0.50",
      Status: "Refunded",
      "Amount refunded": "0.50",
      Refunds: `0.20 at ${at[0]} (${reIds[0]}); 0.30 at ${at[1]} (${reIds[1]})`,
      "Refunded (UTC)": at[1],
    });
    const refundRows = (await csv(exportSellerRefunds(seller.sellerId, { rail: "card" }), REFUND_CSV_COLUMNS)).filter((r) => r["Payment ID"] === id);
    expect(refundRows.map((r) => [r.Amount, r["Payment amount"], r["Refund kind"], r["Card refund ID"]]).sort()).toEqual([
      ["0.20", "0.50", "Partial", reIds[0]],
      ["0.30", "0.50", "Partial", reIds[1]],
    ]);
  }, 60_000);

  it("a payment refunded at once writes one payment.refunded, its whole amount back", async () => {
    const id = await deliveredCheckout();
    await refund(id, "0.50", "key-report-0003");
    const events = await refundEvents(id);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ status: "refunded", amount_refunded: "0.500000", refunds: [{ amount: "0.500000" }], refund: { amount: "0.500000" } });
    const [row] = (await csv(exportSellerPayments(seller.sellerId, { rail: "card" }), CSV_COLUMNS)).filter((r) => r["Payment ID"] === id);
    expect(row).toMatchObject({ "Amount refunded": "0.50", Refunds: expect.stringMatching(/^0\.50 at \S+ \S+ \(re_/) });
    const [refundRow] = (await csv(exportSellerRefunds(seller.sellerId, { rail: "card" }), REFUND_CSV_COLUMNS)).filter((r) => r["Payment ID"] === id);
    expect(refundRow).toMatchObject({ Amount: "0.50", "Refund kind": "Full" });
  }, 60_000);
});
