// The card payer's receipt, emailed once when a checkout they gave an email for is paid: through the one mail path
// (server/identity/send-mail.ts; the demo outbox at /outbox shows it). A receipt that cannot be sent never undoes or
// delays the payment: the failure is logged and the page still shows the receipt.
import { sendMail } from "../../../../identity/send-mail";
import { formatUsd } from "../../../../lib/money";
import { getMerchantInfo } from "../../../../settings/get-merchant-info";
import { findPaymentWithCard } from "../card.queries";
import { claimReceipt } from "./checkout.queries";
import { describePurchase } from "./describe-purchase";
import { getCatalog } from "../../../../catalog/catalog";
import { findSellerById } from "../../../../catalog/catalog.queries";

export async function sendCheckoutReceipt(sellerId: string, paymentId: string): Promise<"sent" | "none" | "failed"> {
  const to = await claimReceipt(paymentId);
  if (!to) return "none";
  const [p, seller, merchant] = await Promise.all([findPaymentWithCard(sellerId, paymentId), findSellerById(sellerId), getMerchantInfo(sellerId)]);
  if (!p || !seller) return "none";
  const catalog = await getCatalog(seller);
  const purchase = describePurchase(catalog, p);
  const amount = formatUsd(p.amountMicros);
  const card = p.card?.cardBrand && p.card.cardLast4 ? `${p.card.cardBrand.toUpperCase()} ending ${p.card.cardLast4}` : "your card";
  const lines = [
    `You paid ${amount} to ${catalog.seller.name}.`,
    "",
    `For: ${purchase.title}`,
    purchase.kind === "plan" ? `What it buys: ${amount} of prepaid credit for your agent` : `Request: ${purchase.detail}`,
    `Paid with: ${card}`,
    `Paid on: ${(p.settledAt ?? new Date()).toISOString().replace("T", " ").slice(0, 16)} UTC`,
    `Payment: ${p.id}`,
    ...(p.card?.processorPaymentId ? [`Reference: ${p.card.processorPaymentId}`] : []),
    "",
    `Refunds: ${merchant.automaticRefund}`,
    ...(merchant.refundPolicy ? [`${catalog.seller.name}'s refund policy: ${merchant.refundPolicy}`] : []),
    merchant.contactEmail ? `Questions: write to ${merchant.contactEmail}.` : `${catalog.seller.name} has not given a contact address.`,
  ];
  const res = await sendMail({ to: to.email, subject: `Your receipt from ${catalog.seller.name}: ${amount}`, text: lines.join("\n") });
  if (res.type === "failed") {
    console.error(`[card] the receipt of ${paymentId} was not sent: ${res.detail}`);
    return "failed";
  }
  return "sent";
}
