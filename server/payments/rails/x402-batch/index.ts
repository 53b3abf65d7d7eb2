// The x402-batch rail: x402's `batch-settlement` scheme, USDC on Base. The payer opens a channel with a deposit (once,
// on chain, relayed by our gas wallet), then pays each call with a voucher: a signature over the channel's cumulative
// ceiling, verified in memory and spent by one PostgreSQL statement. The vouchers are claimed on chain in batches by
// the reconciler, many channels and calls to one transaction. Offered beside `exact` in the same PAYMENT-REQUIRED; the
// official @x402/evm batch-settlement client pays it as it is. README.md says what is durable when, and why.
import { BATCH_SETTLEMENT_ADDRESS } from "@x402/evm";
import type { Hex } from "viem";
import { NETWORK, USDC_ADDRESS } from "../../../chain/config";
import { usdcPrice } from "../../eip3009/authorization";
import { WALLET_REFUND } from "../../eip3009/record-refund";
import { proofRefused } from "../../proof-refused";
import type { Rail } from "../rail";
import { acceptBatch, fitsCachedChannel, receipts, verifyInMemory } from "./accept";
import { releaseVoucher } from "./batch.queries";
import { enqueueCapture } from "./capture-queue";
import { receiverAuthorizer, voucherSignedBy, WITHDRAW_DELAY_SECONDS } from "./channel-terms";
import { claimVouchers } from "./claim-vouchers";
import { offerBatch } from "./offer";
import { readBatchProof, SCHEME, type BatchProof } from "./read-proof";
import { gasWallet } from "./settlement-contract";
import { syncChannels } from "./sync-channels";
import { X402_MCP_BINDING } from "../../x402/mcp-binding";

export const x402BatchRail = {
  name: "x402-batch" as const,
  payerKind: "wallet" as const,
  howToPay:
    "x402 batch-settlement: deposit into a channel once, then sign a voucher per call (PAYMENT-SIGNATURE; @x402/evm's batch-settlement client, which opens the channel with the 402's minDeposit)",

  describe: (seller) => ({
    network: NETWORK,
    scheme: SCHEME,
    asset: USDC_ADDRESS,
    payTo: seller.payTo,
    contract: BATCH_SETTLEMENT_ADDRESS,
    receiverAuthorizer: receiverAuthorizer().address,
    withdrawDelaySeconds: WITHDRAW_DELAY_SECONDS,
    proofHeaders: ["PAYMENT-SIGNATURE"],
    receiptHeader: "PAYMENT-RESPONSE",
  }),

  securityScheme: {
    type: "apiKey",
    in: "header",
    name: "PAYMENT-SIGNATURE",
    description: "x402 v2 payment payload (base64 JSON) of the batch-settlement scheme: a deposit into a channel, or a voucher on it.",
  },

  discovery: { method: SCHEME, description: `x402 batch-settlement on ${NETWORK}, USDC (6 decimals): one deposit, a voucher per call, claimed in batches` },

  // Every priced call, while our gas wallet can relay deposits and send claims; never the $0 quote (nothing to charge).
  price: (amountMicros) => (amountMicros > 0n && gasWallet() ? usdcPrice(amountMicros) : null),

  challenge: { offer: offerBatch },
  // As x402's exact scheme: a refused voucher gets a fresh offer (a corrective 402 keeps its own PAYMENT-REQUIRED).
  refusal: { freshChallenge: true },

  readProof(headers) {
    const read = readBatchProof(headers);
    if (read.type === "none") return { type: "absent" };
    if (read.type === "invalid") return { type: "malformed", error: proofRefused("malformed_payment", read.detail) };
    return { type: "present", proof: read.proof, header: read.header };
  },

  /** The wallet a voucher spends the budget of: its channel's payer, once the payer authorizer's signature recovers. */
  payer: async (proof) =>
    voucherSignedBy(proof.config.payerAuthorizer, proof.channelId, proof.ceiling, proof.payload.voucher.signature as Hex)
      ? proof.config.payer.toLowerCase()
      : null,

  // A voucher that passes every check in memory on a channel this instance knows: the upstream starts while the spend's
  // statement travels (a refused spend drops the answer unserved, as for plan credit).
  deliverWhileAccepting: (call, proof) =>
    call.purpose === "call" && proof.payload.type === "voucher" && !("type" in verifyInMemory(call, proof)) && fitsCachedChannel(call, proof),

  accept: acceptBatch,

  // Charged off the response path; the answer carries PAYMENT-RESPONSE (the charge and the channel's state).
  capture(hold, served) {
    enqueueCapture({ paymentId: hold.payment.id, units: served.units, upstreamStatus: served.upstreamStatus, receipt: served.receipt });
    return receipts.get(hold.payment);
  },

  release: releaseVoucher,

  // The seller sends the USDC back from its payTo to the channel's payer and records the transaction, as for exact.
  refund: WALLET_REFUND,

  // Every reconciler pass: the chain's view of our channels (withdrawals), then a claim when one is due.
  async reconcile() {
    await syncChannels();
    const claimed = await claimVouchers();
    return { settled: "calls" in claimed ? claimed.calls : 0 };
  },

  mcp: [X402_MCP_BINDING],
} satisfies Rail<BatchProof>;
