// How x402's batch-settlement clients pay, for the conformance battery: the official client (@x402/core with @x402/evm's
// BatchSettlementEvmScheme) answering the 402, each proof on a channel of its own. Two ways: its first call (a deposit
// into the channel and the call's voucher), and a voucher on a channel the payer funded on chain beforehand, which the
// storefront adopts from the chain.
import type { RailKit } from "../../../testing/rail-conformance";
import { fundChannelDirectly, freshSalt, officialBatchClient, payBatch } from "./official-client.test-kit";

const PAYER = 4;
const PATH = "/api/v1/aggregates/AAPL?from=2024-05-01&to=2024-05-31";

export const kit: RailKit = {
  rail: "x402-batch",
  ways: [
    {
      name: "the official client's first call (a deposit and its voucher)",
      path: PATH,
      receiptHeaders: [],
      // The client reads the chain it pays on (the test chain), as the e2e spec's does; without an RPC URL of its own
      // it would try Base's public one, and its retries would still be running when the reader is watched.
      pay: async (challenge, { chain }) => (await payBatch(officialBatchClient(PAYER, { rpcUrl: chain.rpcUrl }), challenge)).headers,
    },
    {
      name: "the official client's voucher on a channel funded on chain",
      path: PATH,
      receiptHeaders: [],
      async pay(challenge, { chain }) {
        const c = officialBatchClient(PAYER, { salt: freshSalt(), rpcUrl: chain.rpcUrl });
        const required = c.http.getPaymentRequiredResponse((name) => challenge.headers.get(name), await challenge.clone().json());
        const accept = required.accepts.find((a) => a.scheme === "batch-settlement")!;
        await fundChannelDirectly(chain.rpcUrl, PAYER, c.scheme.buildChannelConfig(accept), 1_000_000n);
        // The client reads the channel's escrow from the chain (no record of its own) and signs a voucher on it.
        return (await payBatch(c, challenge)).headers;
      },
    },
  ],
};
