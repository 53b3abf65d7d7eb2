// The MPP rail (Machine Payments Protocol, mppx 0.11): the `evm` charge method on Base with our USDC (EIP-3009
// `authorization` credentials, recipient = the seller). Challenge in `WWW-Authenticate: Payment`, credential in
// `Authorization: Payment`, settled on chain through the same outbox and facilitator as x402, receipt in
// `Payment-Receipt`. Failed credentials are answered as RFC 9457 problem details with a fresh challenge.
import { Challenge, Receipt } from "mppx";
import { getAddress } from "viem";
import { CHAIN_ID, NETWORK, USDC_ADDRESS } from "../../../chain/config";
import { AppError } from "../../../errors";
import { microsToUsd } from "../../../lib/money";
import { usdcPrice } from "../../eip3009/authorization";
import { WALLET_REFUND } from "../../eip3009/record-refund";
import { settleAuthorization } from "../../eip3009/settle-authorization";
import { releasePayment } from "../../payments.queries";
import { walletProofRefused } from "../../proof-refused";
import { requestBinding } from "../../request-binding";
import type { Rail } from "../rail";
import { signedByFrom } from "../../../chain/eip3009";
import { acceptMpp, type MppRailData } from "./accept";
import { challengeIsOurs } from "../../mpp/mppx-servers";
import { MPP_REFUSAL } from "../../mpp/problem-types";
import { evmMppxServer, USDC_DECIMALS } from "./mppx-server";
import { readMppCredential, type MppProof } from "./read-credential";
import { MPP_MCP_BINDING } from "../../mpp/mcp-binding";

const authorizationOf = (proof: MppProof) =>
  proof.credential.payload as { from: string; to: string; value: string; validAfter: string; validBefore: string; nonce: string; signature: string };

export const mppRail = {
  name: "mpp" as const,
  payerKind: "wallet" as const,
  howToPay: "MPP: answer the `WWW-Authenticate: Payment` challenge (method evm, intent charge) with `Authorization: Payment <credential>`",
  refusal: MPP_REFUSAL,

  describe: () => ({
    intent: "charge",
    method: "evm",
    network: NETWORK,
    currency: USDC_ADDRESS,
    decimals: USDC_DECIMALS,
    credentialTypes: ["authorization"],
    proofHeader: "Authorization: Payment",
    agentTokenHeader: "SVC-Agent-Authorization",
    receiptHeader: "Payment-Receipt",
  }),

  securityScheme: {
    type: "http",
    scheme: "Payment",
    description: "Machine Payments Protocol credential (evm charge, USDC on Base). Send the agent token in SVC-Agent-Authorization, never in Authorization.",
  },

  discovery: { method: "evm", description: `MPP evm charge on ${NETWORK}, USDC (6 decimals)` },

  price: usdcPrice,

  challenge: {
    async offer(call, challenge) {
      const server = evmMppxServer(call.realm, call.payTo);
      const c = await server.challenge.evm.charge({
        amount: microsToUsd(call.amountMicros),
        description: call.summary,
        // Expires with the payment it pays for; the HMAC id covers the expiry and our binding.
        expires: new Date(challenge.expiresAt * 1000).toISOString(),
        meta: { payment_id: challenge.paymentId, binding: call.binding },
      });
      return { headers: [["WWW-Authenticate", Challenge.serialize(c)]] };
    },
  },

  readProof: readMppCredential,

  /** The per-payer limit counts a wallet only once its signature over the authorization recovers to it. */
  payer: async (proof) => {
    const a = authorizationOf(proof);
    if (typeof a?.from !== "string" || typeof a.signature !== "string") return null;
    return (await signedByFrom(a, a.signature)) ? a.from : null;
  },

  accept: acceptMpp,
  release: releasePayment,

  charge: {
    settle: settleAuthorization,
    deliversFirst: true,
    receipt(hold, transaction, pending) {
      const data = hold.payment.railData as unknown as MppRailData;
      const receipt = Receipt.from({
        method: "evm",
        status: "success",
        reference: transaction ?? hold.payment.id,
        timestamp: new Date().toISOString(),
        challengeId: data.challengeId,
        chainId: CHAIN_ID,
        externalId: hold.payment.id,
        // MPP's receipt says the credential was accepted (`status` is always "success"); its `reference` is then the
        // transaction as submitted, and this extension field says it is not included yet (mppx keeps unknown fields).
        ...(pending ? { settlement: "pending" } : {}),
      } as Parameters<typeof Receipt.from>[0]);
      return { "Payment-Receipt": Receipt.serialize(receipt) };
    },
  },

  refund: WALLET_REFUND,

  /** The free quote's $0 proof: an `evm` charge credential for a $0 challenge of ours, for this very route. Never settled. */
  async verifyWalletProof(proof, binding) {
    const { credential, meta } = proof;
    const expected = requestBinding({ ...binding, canonicalQuery: "" });
    if (!meta || meta.binding !== expected || !challengeIsOurs(credential.challenge))
      throw new AppError("payment_request_mismatch", { detail: "this wallet proof answers another challenge; request a fresh 402" });
    try {
      await evmMppxServer(binding.realm, binding.payTo).validateCredential(credential, { request: { amount: "0" }, meta: { ...meta }, realm: binding.realm });
    } catch (e) {
      throw walletProofRefused("invalid_wallet_proof", `the MPP wallet proof did not verify (${e instanceof Error ? e.message : String(e)})`);
    }
    return { wallet: getAddress(authorizationOf(proof).from) };
  },

  mcp: [MPP_MCP_BINDING],
} satisfies Rail<MppProof>;
