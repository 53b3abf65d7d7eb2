// How MPP's clients pay, for the conformance battery: mppx's official client answers the 402's evm challenge with a
// funded test wallet.
import { payChallengeMpp } from "../../../testing/gateway";
import type { RailKit } from "../../../testing/rail-conformance";

export const kit: RailKit = {
  rail: "mpp",
  ways: [
    {
      name: "mppx's official client (evm)",
      path: "/api/v1/aggregates/AAPL?from=2024-03-01&to=2024-03-29",
      receiptHeaders: ["payment-receipt"],
      pay: (challenge) => payChallengeMpp(challenge, 3),
    },
  ],
};
