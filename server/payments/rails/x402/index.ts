// The x402 rail: USDC on Base, scheme `exact` (EIP-3009 TransferWithAuthorization), proof in X-PAYMENT (v1) or
// PAYMENT-SIGNATURE (v2), settled on chain by the facilitator, receipt in PAYMENT-RESPONSE (and X-PAYMENT-RESPONSE).
import { NETWORK, USDC_ADDRESS } from "../../../chain/config";
import { signedByFrom } from "../../../chain/eip3009";
import { env } from "../../../env";
import { AppError } from "../../../errors";
import { settleAuthorization } from "../../eip3009/settle-authorization";
import { releasePayment } from "../../payments.queries";
import type { PaidCall, Rail } from "../rail";
import { acceptX402 } from "./accept";
import { signChallenge } from "./challenge-token";
import { encodeBase64Json, paymentRequiredV1, paymentRequiredV2, type Offer } from "./offer";
import { readProofHeader, type DecodedProof } from "./read-proof";
import { verifyX402WalletProof } from "./verify-wallet-proof";

export const x402Rail: Rail<DecodedProof> = {
  name: "x402",
  payerKind: "wallet",
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

  discoveryOffers: (amountMicros) => [
    {
      protocol: "x402",
      intent: "charge",
      method: "exact",
      currency: USDC_ADDRESS,
      amount: amountMicros.toString(),
      description: `x402 exact on ${NETWORK}, USDC (6 decimals)`,
    },
  ],

  // Every priced call, and the $0 quote (a wallet proof).
  canOffer: () => true,

  offer(call: PaidCall, challenge) {
    const { paymentId, expiresAt } = challenge;
    const token = signChallenge({
      paymentId,
      sellerId: call.sellerId,
      method: call.method,
      path: call.path,
      query: call.canonicalQuery,
      amountMicros: call.amountMicros,
      payTo: call.payTo,
      expiresAt,
    });
    const offer: Offer = {
      paymentId,
      amountMicros: call.amountMicros,
      payTo: call.payTo,
      challenge: token,
      expiresAt,
      resourceUrl: `${call.origin}${call.path}${call.canonicalQuery ? `?${call.canonicalQuery}` : ""}`,
      description: call.summary,
      maxTimeoutSeconds: env().PAYMENT_CHALLENGE_TTL_SECONDS,
    };
    return { body: paymentRequiredV1(offer), headers: [["PAYMENT-REQUIRED", encodeBase64Json(paymentRequiredV2(offer))]] };
  },

  readProof(headers) {
    const read = readProofHeader(headers);
    if (read.type === "none") return { type: "absent" };
    if (read.type === "invalid") return { type: "malformed", error: new AppError("payment_invalid", { reason: "malformed_payment", detail: read.detail }) };
    return { type: "present", proof: read.proof, header: read.header };
  },

  /**
   * Only a wallet that signed the proof spends its own budget: `from` is a claim until the signature recovers to it,
   * and counting claims would let anyone exhaust another wallet's limit. One local ecrecover, no chain call.
   */
  payer: async (proof) => ((await signedByFrom(proof.authorization, proof.signature)) ? proof.authorization.from : null),

  accept: acceptX402,
  settle: settleAuthorization,
  release: releasePayment,

  receipt(hold, transaction) {
    const receipt = encodeBase64Json({ success: true, transaction, network: NETWORK, payer: hold.payment.payer });
    return { "PAYMENT-RESPONSE": receipt, "X-PAYMENT-RESPONSE": receipt };
  },

  verifyWalletProof: verifyX402WalletProof,
};
