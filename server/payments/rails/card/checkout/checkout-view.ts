// What the hosted checkout page (/checkout/{paymentId}) shows, and what statusUrl reports of a card payment: one
// reading of a payment's card state for people and agents alike.
import type { Catalog } from "../../../../catalog/catalog";
import { cardEligible, formatUsd, microsToUsd } from "../../../../lib/money";
import { syncCheckout } from "./apply-card-outcome";
import type { PaymentRow } from "../../../payments.queries";
import { findCardPayment, findPaymentWithCard, type PaymentWithCard } from "../card.queries";
import { findBuyingAgent } from "./checkout.queries";
import { describePurchase, purchasingCredential, type Purchase } from "./describe-purchase";
import { getMerchantInfo, type MerchantInfo } from "../../../../settings/get-merchant-info";
import { processorFor } from "../processor/get-card-processor";
import { TEST_CARDS } from "../processor/test-processor";

/** The card state an agent polls for (statusUrl `card.status`) and the page renders. */
export type CardStatus = "incomplete" | "requires_action" | "processing" | "complete" | "consumed" | "expired" | "refunded" | "failed";

export function cardStatus(p: Pick<PaymentWithCard, "status" | "failureReason" | "card">): CardStatus {
  switch (p.status) {
    case "challenged":
      return "incomplete";
    case "incomplete":
      return p.card?.checkoutStatus === "requires_action" ? "requires_action" : "incomplete";
    case "verified":
      return "processing";
    case "settled":
      // A paid checkout waits for its retry; the MPP card method is settled only after its response went out.
      return p.card?.flow === "mpp" ? "consumed" : "complete";
    case "consumed":
      return "consumed";
    case "released":
      return p.failureReason === "checkout_expired" ? "expired" : "failed";
    case "refunded":
      return "refunded";
    case "failed":
      return "failed";
  }
}

export type CardError = { code: string; decline_code: string | null; message: string };

/** statusUrl's `card` block: present for a payment that can be, or was, paid by card. */
export function cardBlock(p: PaymentWithCard, origin: string) {
  if (!p.card && !(p.status === "challenged" && cardEligible(p.amountMicros))) return null;
  const c = p.card;
  return {
    status: cardStatus(p),
    flow: c?.flow ?? null,
    checkout_url: c?.flow === "checkout" ? `${origin}/checkout/${p.id}` : null,
    brand: c?.cardBrand ?? null,
    last4: c?.cardLast4 ?? null,
    last_error: c?.lastErrorCode ? { code: c.lastErrorCode, decline_code: c.lastDeclineCode, message: c.lastErrorMessage ?? "" } : null,
    refund: c?.refundStatus
      ? {
          status: c.refundStatus,
          cause: c.refundCause,
          requested_at: c.refundRequestedAt?.toISOString() ?? null,
          refunded_at: c.refundedAt?.toISOString() ?? null,
        }
      : null,
  };
}

/** The card rail's `paymentStatus`: statusUrl's `card` block, read with the payment's card row. */
export async function cardStatusBlock(p: PaymentRow, origin: string) {
  // An unpaid 402 too small for a card has no card side to read.
  const card = p.status === "challenged" ? null : await findCardPayment(p.id);
  return cardBlock({ ...p, card }, origin);
}

export type CheckoutView = {
  paymentId: string;
  sellerName: string;
  purchase: Purchase;
  amount: string;
  amountUsd: string;
  /** not_started: no checkout was opened for this 402 (the agent has not POSTed payUrl); unavailable: not a card payment. */
  state: CardStatus | "not_started" | "unavailable";
  processor: { kind: string; label: string; testMode: boolean; hostedUrl: string | null; cardOnPage: boolean } | null;
  attempt: number;
  lastError: CardError | null;
  card: { brand: string; last4: string } | null;
  reference: string | null;
  paidAt: string | null;
  expiresAt: string;
  refund: { status: string; cause: string | null; refundedAt: string | null } | null;
  /** Test processor only: the published test cards the page lists. */
  testCards: { number: string; label: string }[] | null;
  /** Who the payer is dealing with: the seller's contact, terms and refund policy (and the automatic refund). */
  merchant: MerchantInfo;
  /** The email the payer gave for their receipt, if any. */
  payerEmail: string | null;
};

const TEST_CARD_LABELS: Record<string, string> = {
  succeeds: "succeeds",
  generic_decline: "declined (generic decline)",
  insufficient_funds: "declined (insufficient funds)",
  authentication_required: "asks for 3-D Secure authentication",
};

/**
 * The page's view of a payment of this seller; null for an unknown id or another seller's payment (the page is a 404).
 * `sync`: ask the processor first when the card is taken on its page (a human back from Stripe Checkout).
 */
export async function getCheckoutView(catalog: Catalog, paymentId: string, opts: { sync?: boolean } = {}): Promise<CheckoutView | null> {
  let p = await findPaymentWithCard(catalog.seller.id, paymentId);
  if (!p) return null;
  if (opts.sync && p.status === "incomplete" && p.card && !processorFor(p.card.processor).onPage) {
    try {
      await syncCheckout(p);
      p = (await findPaymentWithCard(catalog.seller.id, paymentId))!;
    } catch (e) {
      // The page still renders what we know; the webhook or the reconciler brings the rest.
      console.error(`[card] could not refresh checkout of ${paymentId}:`, e instanceof Error ? e.message : e);
    }
  }
  const c = p.card;
  const processor = c ? processorFor(c.processor) : null;
  const credential = purchasingCredential(p);
  const [agent, merchant] = await Promise.all([credential ? findBuyingAgent(catalog.seller.id, credential) : null, getMerchantInfo(catalog.seller.id)]);
  const state: CheckoutView["state"] =
    p.status === "challenged" ? (cardEligible(p.amountMicros) ? "not_started" : "unavailable") : c?.flow === "checkout" ? cardStatus(p) : "unavailable";
  return {
    paymentId: p.id,
    sellerName: catalog.seller.name,
    purchase: describePurchase(catalog, p, agent),
    amount: formatUsd(p.amountMicros),
    amountUsd: microsToUsd(p.amountMicros),
    state,
    processor: processor
      ? { kind: processor.kind, label: processor.label, testMode: processor.testMode, hostedUrl: c?.checkoutUrl ?? null, cardOnPage: Boolean(processor.onPage) }
      : null,
    attempt: c?.attempts ?? 0,
    lastError: c?.lastErrorCode ? { code: c.lastErrorCode, decline_code: c.lastDeclineCode, message: c.lastErrorMessage ?? "" } : null,
    card: c?.cardBrand && c.cardLast4 ? { brand: c.cardBrand, last4: c.cardLast4 } : null,
    reference: c?.processorPaymentId ?? null,
    paidAt: p.settledAt?.toISOString() ?? null,
    expiresAt: p.expiresAt.toISOString(),
    refund: c?.refundStatus ? { status: c.refundStatus, cause: c.refundCause, refundedAt: c.refundedAt?.toISOString() ?? null } : null,
    testCards:
      processor?.kind === "test"
        ? Object.entries(TEST_CARDS).map(([n, t]) => ({ number: n.replace(/(\d{4})(?=\d)/g, "$1 "), label: TEST_CARD_LABELS[t.behaviour]! }))
        : null,
    merchant,
    payerEmail: c?.payerEmail ?? null,
  };
}
