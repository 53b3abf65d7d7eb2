// Which processor takes card payments, in words: the console's Settings and the overview's setup checklist say the
// same as the start-up line (server/payments/rails/card/processor/get-card-processor.ts). Never the key itself.
import type { Outputs } from "./types";

export type CardProcessorStatus = Outputs["settings"]["cardProcessor"];

/** A short name for the processor, and a sentence on what it means for payers. */
export function cardProcessorWords(s: CardProcessorStatus): { name: string; meaning: string } {
  if (s.processor === "stripe")
    return s.mode === "live"
      ? { name: "Stripe (live)", meaning: "Card payments are real charges, paid out by Stripe." }
      : { name: "Stripe (test mode)", meaning: "Card payments use Stripe's test cards: no real money moves. Switch to a live key to take real payments." };
  if (s.processor === "test")
    return {
      name: "The built-in test processor",
      meaning: "CARD_TEST_PROCESSOR is on: test cards only, no real money moves. For the demo and tests, not for a live storefront.",
    };
  return {
    name: "None",
    meaning:
      "Card payments are not offered: agents pay with a wallet (x402, MPP) or plan credit. Whoever runs this deployment turns cards on with STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET.",
  };
}
