// A payment's state in a seller's words, keyed by the contract's states (server/contracts/platform.ts), so a state
// added there without words here is a type error (a card checkout's `incomplete` once got an unstyled badge). The
// protocol word stays on hover; filters use `filterLabel`, which tells apart states that read the same in a badge.
import type { PAYMENT_STATES } from "@/server/contracts/platform";

export type PaymentStatus = (typeof PAYMENT_STATES)[number];

type StateView = { label: string; filterLabel: string; tone: string; meaning: string };

export const STATE_VIEW: Record<PaymentStatus, StateView> = {
  challenged: {
    label: "Awaiting payment",
    filterLabel: "Awaiting payment (unpaid 402)",
    tone: "bg-slate-100 text-slate-800",
    meaning: "a 402 was issued; no payment has arrived",
  },
  incomplete: {
    label: "Incomplete",
    filterLabel: "Incomplete (card checkout open)",
    tone: "bg-amber-100 text-amber-900",
    meaning: "a card checkout is open; the person has not paid yet",
  },
  verified: {
    label: "Pending",
    filterLabel: "Pending",
    tone: "bg-amber-100 text-amber-900",
    meaning: "the payment verified and is held while the call is served",
  },
  settled: {
    label: "Succeeded",
    filterLabel: "Succeeded, not delivered yet",
    tone: "bg-emerald-100 text-emerald-900",
    meaning: "charged; the paid response has not gone out yet",
  },
  consumed: { label: "Succeeded", filterLabel: "Succeeded", tone: "bg-emerald-100 text-emerald-900", meaning: "charged, and the paid response went out" },
  released: {
    label: "Not charged",
    filterLabel: "Not charged",
    tone: "bg-slate-100 text-slate-800",
    meaning: "verified, then released without charge (the upstream failed or the call was abandoned)",
  },
  refunded: { label: "Refunded", filterLabel: "Refunded", tone: "bg-sky-100 text-sky-900", meaning: "charged, then given back in full" },
  failed: { label: "Failed", filterLabel: "Failed", tone: "bg-red-100 text-red-900", meaning: "the payment did not settle; nothing was charged" },
};

/** Every state, in lifecycle order (the contract's order, as STATE_VIEW lists them). */
export const STATES = Object.keys(STATE_VIEW) as PaymentStatus[];

export const isPaymentStatus = (s: string): s is PaymentStatus => Object.hasOwn(STATE_VIEW, s);

/** The badge's colours of a partly refunded payment (the refunded colour). */
export const PARTIALLY_REFUNDED_TONE = "bg-sky-100 text-sky-900";

/**
 * What a badge says for a payment: "Partially refunded" for a paid payment given back in part; its state's label, "Expired" for a 402 past its expiry or a card checkout that
 * expired unpaid, "Pending (settling)" while a decided charge is being recorded.
 */
export function stateLabel(p: { status: PaymentStatus; settling?: boolean; expired?: boolean; reason?: string | null; partiallyRefunded?: boolean }): {
  label: string;
  title: string;
} {
  const view = STATE_VIEW[p.status];
  // Still paid (settled or consumed), some of it given back: the one derived state, as Stripe's Dashboard shows it.
  if (p.partiallyRefunded) return { label: "Partially refunded", title: `${p.status}: charged, then given back in part; the rest can still be refunded` };
  const expired = (p.status === "challenged" && p.expired) || (p.status === "released" && p.reason === "checkout_expired");
  const label = expired ? "Expired" : p.settling ? `${view.label} (settling)` : view.label;
  const meaning = expired ? "nobody paid before it expired; nothing was charged" : view.meaning;
  return { label, title: `${p.status}${p.settling ? " (settling)" : ""}: ${meaning}` };
}
