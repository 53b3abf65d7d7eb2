// How x402's clients pay, for the conformance battery: the official client (@x402/core with @x402/evm) signs the 402's
// PAYMENT-REQUIRED offer with a funded test wallet.
import { payChallenge } from "../../../testing/gateway";
import type { RailKit } from "../../../testing/rail-conformance";

export const kit: RailKit = {
  rail: "x402",
  ways: [
    {
      name: "the official x402 client",
      path: "/api/v1/aggregates/AAPL?from=2024-02-01&to=2024-02-29",
      receiptHeaders: ["payment-response", "x-payment-response"],
      pay: (challenge) => payChallenge(challenge, 2),
    },
  ],
};
