// The x402 rail: USDC on Base, scheme `exact` (EIP-3009 TransferWithAuthorization), proof in X-PAYMENT (v1) or
// PAYMENT-SIGNATURE (v2), settled on chain by the facilitator, receipt in PAYMENT-RESPONSE (and X-PAYMENT-RESPONSE).
import { NETWORK, USDC_ADDRESS } from "../../../chain/config";
import { signedByFrom } from "../../../chain/eip3009";
import { usdcPrice } from "../../eip3009/authorization";
import { WALLET_REFUND } from "../../eip3009/record-refund";
import { settleAuthorization } from "../../eip3009/settle-authorization";
import { releasePayment } from "../../payments.queries";
import { proofRefused } from "../../proof-refused";
import type { Rail } from "../rail";
import { acceptX402 } from "./accept";
import { encodeBase64Json, offerX402 } from "./offer";
import { readProofHeader, type DecodedProof } from "./read-proof";
import { verifyX402WalletProof } from "./verify-wallet-proof";
import { X402_MCP_BINDING } from "../../x402/mcp-binding";

export const x402Rail = {
  name: "x402" as const,
  payerKind: "wallet" as const,
  howToPay: "x402: sign the USDC offer (PAYMENT-REQUIRED, or `accepts` for v1 clients) and retry with PAYMENT-SIGNATURE or X-PAYMENT",

  describe: (seller) => ({
    network: NETWORK,
    scheme: "exact",
    asset: USDC_ADDRESS,
    payTo: seller.payTo,
    proofHeaders: ["PAYMENT-SIGNATURE", "X-PAYMENT"],
    receiptHeader: "PAYMENT-RESPONSE",
  }),

  securityScheme: { type: "apiKey", in: "header", name: "X-PAYMENT", description: "x402 payment payload (base64 JSON); v2 clients send PAYMENT-SIGNATURE." },

  discovery: { method: "exact", description: `x402 exact on ${NETWORK}, USDC (6 decimals)` },

  // Every priced call, and the $0 quote (a wallet proof).
  price: usdcPrice,

  challenge: { offer: offerX402 },
  // A refused proof is answered with a fresh offer, as the unpaid 402 (PAYMENT-REQUIRED, its `error` saying why, and
  // `accepts`), so an x402 client parses the refusal and can pay again without another round trip.
  refusal: { freshChallenge: true },

  readProof(headers) {
    const read = readProofHeader(headers);
    if (read.type === "none") return { type: "absent" };
    if (read.type === "invalid") return { type: "malformed", error: proofRefused("malformed_payment", read.detail) };
    return { type: "present", proof: read.proof, header: read.header };
  },

  /**
   * Only a wallet that signed the proof spends its own budget: `from` is a claim until the signature recovers to it,
   * and counting claims would let anyone exhaust another wallet's limit. One local ecrecover, no chain call.
   */
  payer: async (proof) => ((await signedByFrom(proof.authorization, proof.signature)) ? proof.authorization.from : null),

  accept: acceptX402,
  release: releasePayment,

  charge: {
    settle: settleAuthorization,
    deliversFirst: true,
    receipt(hold, transaction, pending) {
      // x402's word for a transfer broadcast and not yet confirmed: errorReason `settlement_pending` with its hash
      // (SettleResponse, @x402/core; the same answer a facilitator gives when its confirmation wait runs out).
      const receipt = pending
        ? encodeBase64Json({ success: false, errorReason: "settlement_pending", transaction: transaction ?? "", network: NETWORK, payer: hold.payment.payer })
        : encodeBase64Json({ success: true, transaction, network: NETWORK, payer: hold.payment.payer });
      return { "PAYMENT-RESPONSE": receipt, "X-PAYMENT-RESPONSE": receipt };
    },
  },

  verifyWalletProof: verifyX402WalletProof,
  refund: WALLET_REFUND,

  mcp: [X402_MCP_BINDING],
} satisfies Rail<DecodedProof>;
