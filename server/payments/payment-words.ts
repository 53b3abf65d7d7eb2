// A payment's state and rail in a seller's words, for what the server writes for people (the CSV files): the same words
// as the console's badges (app/(console)/console/_components/payment-states.ts, docs/console.md "Words"), keyed by the
// contract's states so a new state without words is a type error.
import type { PaymentStatus } from "./payment-state";

export const STATUS_WORDS: Record<PaymentStatus, string> = {
  challenged: "Awaiting payment",
  incomplete: "Incomplete",
  verified: "Pending",
  settled: "Succeeded",
  consumed: "Succeeded",
  released: "Not charged",
  refunded: "Refunded",
  failed: "Failed",
};

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
