// Card payers identified: the email given on the checkout is kept on the card payment, the receipt is emailed once
// (through the mail path; the demo outbox here), the payer shows in Customers and is found by the search box; the
// seller's contact, terms and refund policy reach the checkout's view and are audited when changed.
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "../../../../db/client";
import { withEnvForTests } from "../../../../env";
import { getCatalog } from "../../../../catalog/catalog";
import { findSellerById } from "../../../../catalog/catalog.queries";
import { createGatewaySeller } from "../../../../testing/gateway";
import { openCheckoutFor, TEST_CARD } from "../../../../testing/card";
import { createCaller, sessionFor } from "../../../../testing/trpc";
import { getCheckoutView } from "./checkout-view";
import { authenticateOnPage, payWithCardOnPage } from "./pay-on-page";

const BACKTEST = "/api/v1/backtest/AAPL";
let store: Awaited<ReturnType<typeof createGatewaySeller>>;
let owner: { id: string };
const card = (number: string) => ({ number: number.replace(/ /g, ""), expMonth: 12, expYear: new Date().getUTCFullYear() + 2, cvc: "123" });
const outboxTo = (to: string) => db.outboxMessage.findMany({ where: { to }, orderBy: { createdAt: "asc" } });
const catalog = async () => getCatalog((await findSellerById(store.sellerId))!);

beforeAll(async () => {
  store = await createGatewaySeller("http://127.0.0.1:9", { signingSecret: "card-payer-secret-0123456789" });
  owner = await db.sellerUser.findFirstOrThrow({ where: { sellerId: store.sellerId } });
});

describe("the card payer", () => {
  it("gives an email: it is kept, the receipt is emailed once however often the form is sent, and Customers and search find them", async () => {
    await withEnvForTests({ IDENTITY_DEV_OUTBOX: "1" }, async () => {
      const email = `payer-${Date.now().toString(36)}@example.com`;
      const opened = await openCheckoutFor(store.host, BACKTEST);
      const pay = () =>
        payWithCardOnPage({
          sellerId: store.sellerId,
          paymentId: opened.paymentId,
          attempt: 0,
          card: card(TEST_CARD.success),
          email: ` ${email.toUpperCase()} `,
        });
      await Promise.all([pay(), pay(), pay()]);
      expect(await db.cardPayment.findUniqueOrThrow({ where: { paymentId: opened.paymentId } })).toMatchObject({
        payerEmail: email,
        receiptSentAt: expect.any(Date),
      });
      const mail = await outboxTo(email);
      expect(mail).toHaveLength(1);
      expect(mail[0]!.subject).toContain("$0.50");
      expect(mail[0]!.text).toContain(opened.paymentId);
      expect(mail[0]!.text).toContain("VISA ending 4242");
      expect(mail[0]!.text).toContain("refunded in full automatically");
      expect((await getCheckoutView(await catalog(), opened.paymentId))!.payerEmail).toBe(email);

      const asOwner = createCaller(sessionFor(owner.id, store.sellerId));
      const { payers } = await asOwner.customers.cardPayers({});
      expect(payers.find((p) => p.email === email)).toMatchObject({ payments: 1, refunds: 0, paidUsd: "0.500000", cards: ["VISA •••• 4242"] });
      const found = await asOwner.payments.list({ q: email });
      expect(found.payments.map((p) => p.id)).toEqual([opened.paymentId]);
      // Refunded: out of what they paid, counted apart.
      await asOwner.payments.refund({ paymentId: opened.paymentId });
      const after = (await asOwner.customers.cardPayers({})).payers.find((p) => p.email === email);
      expect(after).toMatchObject({ payments: 1, refunds: 1, paidUsd: "0.000000", refundedUsd: "0.500000" });
    });
  });

  it("gives none: no mail; a 3-D Secure payment's receipt goes out when the authentication completes; a malformed email is refused", async () => {
    await withEnvForTests({ IDENTITY_DEV_OUTBOX: "1" }, async () => {
      const before = await db.outboxMessage.count();
      const plain = await openCheckoutFor(store.host, BACKTEST);
      await payWithCardOnPage({ sellerId: store.sellerId, paymentId: plain.paymentId, attempt: 0, card: card(TEST_CARD.success) });
      expect(await db.cardPayment.findUniqueOrThrow({ where: { paymentId: plain.paymentId } })).toMatchObject({ payerEmail: null, receiptSentAt: null });
      expect(await db.outboxMessage.count()).toBe(before);

      const bad = await openCheckoutFor(store.host, BACKTEST);
      await expect(
        payWithCardOnPage({ sellerId: store.sellerId, paymentId: bad.paymentId, attempt: 0, card: card(TEST_CARD.success), email: "not an email" }),
      ).rejects.toMatchObject({ code: "invalid_request" });
      expect((await db.payment.findUniqueOrThrow({ where: { id: bad.paymentId } })).status).toBe("incomplete");

      const email = `secure-${Date.now().toString(36)}@example.com`;
      const secure = await openCheckoutFor(store.host, BACKTEST);
      await payWithCardOnPage({ sellerId: store.sellerId, paymentId: secure.paymentId, attempt: 0, card: card(TEST_CARD.threeDSecure), email });
      expect(await outboxTo(email)).toHaveLength(0);
      await authenticateOnPage({ sellerId: store.sellerId, paymentId: secure.paymentId, approve: true });
      expect(await outboxTo(email)).toHaveLength(1);
    });
  });
});

describe("what payers read about the seller", () => {
  it("is set in Settings (audited, validated), and shown on the checkout with the automatic refund", async () => {
    const asOwner = createCaller(sessionFor(owner.id, store.sellerId));
    await expect(asOwner.settings.updateMerchant({ contactEmail: "nope", termsText: null, refundPolicy: null })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    await asOwner.settings.updateMerchant({ contactEmail: " Help@Shop.example ", termsText: "Data as is.", refundPolicy: "Ask within 30 days." });
    expect((await asOwner.settings.get()).merchant).toEqual({
      contactEmail: "help@shop.example",
      termsText: "Data as is.",
      refundPolicy: "Ask within 30 days.",
    });
    const audit = await db.auditLog.findMany({ where: { sellerId: store.sellerId, action: "settings.update" } });
    expect(audit.at(-1)!.after).toEqual({ contactEmail: "help@shop.example", termsText: "Data as is.", refundPolicy: "Ask within 30 days." });
    // Saving the same again changes nothing and audits nothing.
    await asOwner.settings.updateMerchant({ contactEmail: "help@shop.example", termsText: "Data as is.", refundPolicy: "Ask within 30 days." });
    expect(await db.auditLog.count({ where: { sellerId: store.sellerId, action: "settings.update" } })).toBe(audit.length);

    const opened = await openCheckoutFor(store.host, BACKTEST);
    const view = (await getCheckoutView(await catalog(), opened.paymentId))!;
    expect(view.merchant).toMatchObject({ contactEmail: "help@shop.example", termsText: "Data as is.", refundPolicy: "Ask within 30 days." });
    expect(view.merchant.automaticRefund).toContain("refunded in full automatically");
    expect(view.purchase).toMatchObject({ kind: "call", plan: null, detail: expect.stringContaining("GET /api/v1/backtest/AAPL") });
  });
});
