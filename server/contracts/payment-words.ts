// A payment's state and rail in a seller's words, the one table of them: the console's badges, filters, search results,
// customer page and audit log, and the CSV files the server writes, all read it (docs/console.md "Words"). Keyed by the
// contract's states, so a state added there without words here is a type error. Words as a card dashboard says them
// (Succeeded, Pending, Refunded, Partially refunded, Failed); the protocol's word and its meaning stay one hover away.
import { PAYMENT_STATES } from "./payment-status";

export type PaymentStatus = (typeof PAYMENT_STATES)[number];

/** `label`: a badge; `filterLabel`: a filter, telling apart states that read the same in a badge; `meaning`: on hover. */
export type StateWords = { label: string; filterLabel: string; meaning: string };

export const STATE_WORDS: Record<PaymentStatus, StateWords> = {
  challenged: { label: "Awaiting payment", filterLabel: "Awaiting payment (unpaid 402)", meaning: "a 402 was issued; no payment has arrived" },
  incomplete: { label: "Incomplete", filterLabel: "Incomplete (card checkout open)", meaning: "a card checkout is open; the person has not paid yet" },
  verified: { label: "Pending", filterLabel: "Pending", meaning: "the payment verified and is held while the call is served" },
  settled: { label: "Succeeded", filterLabel: "Succeeded, not delivered yet", meaning: "charged; the paid response has not gone out yet" },
  consumed: { label: "Succeeded", filterLabel: "Succeeded", meaning: "charged, and the paid response went out" },
  released: {
    label: "Not charged",
    filterLabel: "Not charged",
    meaning: "verified, then released without charge (the upstream failed or the call was abandoned)",
  },
  refunded: { label: "Refunded", filterLabel: "Refunded", meaning: "charged, then given back in full" },
  failed: { label: "Failed", filterLabel: "Failed", meaning: "the payment did not settle; nothing was charged" },
};

/** A state's badge word alone (the CSV files' Status column). */
export const STATUS_WORDS = Object.fromEntries(PAYMENT_STATES.map((s) => [s, STATE_WORDS[s].label])) as Record<PaymentStatus, string>;

/** Every state, in lifecycle order (the contract's order). */
export const STATES: readonly PaymentStatus[] = PAYMENT_STATES;

export const isPaymentStatus = (s: string): s is PaymentStatus => Object.hasOwn(STATE_WORDS, s);

/** The one derived state: paid (settled or consumed), some of it given back; a card refund's audit row writes it too. */
export const PARTIALLY_REFUNDED = "partially_refunded";
export const PARTIALLY_REFUNDED_WORDS = "Partially refunded";
const PARTIAL_MEANING = "charged, then given back in part; the rest can still be refunded";

export type StateFacts = { status: PaymentStatus; settling?: boolean; expired?: boolean; reason?: string | null; partiallyRefunded?: boolean };

/**
 * What a payment's state reads as, and its hover: "Partially refunded" for a paid payment given back in part; its state's
 * label, "Expired" for a 402 past its expiry or a card checkout that expired unpaid, "Pending (settling)" while a decided
 * charge is being recorded.
 */
export function stateLabel(p: StateFacts): { label: string; title: string } {
  const words = STATE_WORDS[p.status];
  if (p.partiallyRefunded) return { label: PARTIALLY_REFUNDED_WORDS, title: `${p.status}: ${PARTIAL_MEANING}` };
  const expired = (p.status === "challenged" && p.expired) || (p.status === "released" && p.reason === "checkout_expired");
  const label = expired ? "Expired" : p.settling ? `${words.label} (settling)` : words.label;
  const meaning = expired ? "nobody paid before it expired; nothing was charged" : words.meaning;
  return { label, title: `${p.status}${p.settling ? " (settling)" : ""}: ${meaning}` };
}

/** A state word as stored anywhere (a payment's status, an audit row's `partially_refunded`) in words; null if it is none. */
export function stateWordsOf(value: string): { label: string; title: string } | null {
  if (value === PARTIALLY_REFUNDED) return { label: PARTIALLY_REFUNDED_WORDS, title: `${PARTIALLY_REFUNDED}: ${PARTIAL_MEANING}` };
  return isPaymentStatus(value) ? stateLabel({ status: value }) : null;
}

const RAIL_WORDS: Record<string, string> = {
  x402: "x402 (USDC)",
  "x402-batch": "x402 batch (USDC)",
  mpp: "MPP (USDC)",
  card: "Card",
  credits: "Prepaid credit",
};

/** What a person calls how a payment was paid ("Card", "x402 (USDC)"); an unknown rail keeps its name. */
export function railWords(rail: string | null | undefined): string {
  return rail ? (RAIL_WORDS[rail] ?? rail) : "";
}

/** A card as a receipt shows it: "VISA •••• 4242" (brand and last four only: no card number exists here). */
export function cardWords(card: { brand: string | null; last4: string | null } | null | undefined): string {
  return card?.last4 ? `${(card.brand ?? "card").toUpperCase()} •••• ${card.last4}` : "";
}

/** A refund's state (a wallet refund is recorded done; a card refund waits on its processor), the Refunds page's and CSV's words. */
export const REFUND_STATUS_WORDS = { succeeded: "Refunded", pending: "Pending at the card processor", failed: "Failed at the card processor" } as const;
export type RefundStatus = keyof typeof REFUND_STATUS_WORDS;

/** Why a card payment was refunded, in words (the schema's `refund_cause`). */
export const REFUND_CAUSE_WORDS: Record<string, string> = {
  delivery_failed: "automatic: the call failed after the charge",
  undelivered: "automatic: not delivered in time",
  seller: "by the seller",
};

/** A card refund in a line: "Refunded (by the seller)", "Pending at the card processor (automatic: ...)". */
export function cardRefundWords(r: { status: string; cause?: string | null }): string {
  const cause = r.cause ? ` (${REFUND_CAUSE_WORDS[r.cause] ?? r.cause})` : "";
  return `${refundStatusWords(r.status)}${cause}`;
}

/** A refund's state in words; an unknown one keeps its name. */
export function refundStatusWords(status: string): string {
  return Object.hasOwn(REFUND_STATUS_WORDS, status) ? REFUND_STATUS_WORDS[status as RefundStatus] : status;
}
