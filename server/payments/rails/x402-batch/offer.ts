// What this rail says in x402's own documents: its requirements in the 402's PAYMENT-REQUIRED (beside the exact
// scheme's, in the same `accepts`), the corrective 402 that tells a client whose cumulative base is off where the
// channel stands, and PAYMENT-RESPONSE on a paid call (the charge and the channel's state, which the official client
// checks before it signs the next voucher).
import "server-only";
import type { PaymentRequired, PaymentRequirements } from "@x402/core/types";
import { NETWORK, USDC_ADDRESS, USDC_DOMAIN } from "../../../chain/config";
import { env } from "../../../env";
import type { ChallengeRef, PaidCall, RailOffer, RailPrice } from "../rail";
import type { ChannelRow } from "./batch.queries";
import { MIN_DEPOSIT_CALLS, receiverAuthorizer, WITHDRAW_DELAY_SECONDS } from "./channel-terms";
import { SCHEME } from "./read-proof";

/** x402's reason for a voucher not signed on the server's charged total (the client resyncs from the channel state). */
export const CUMULATIVE_MISMATCH = "invalid_batch_settlement_evm_cumulative_amount_mismatch";

const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64");

function decode(value: string): PaymentRequired | null {
  try {
    const doc = JSON.parse(Buffer.from(value, "base64").toString("utf8")) as PaymentRequired;
    return Array.isArray(doc?.accepts) ? doc : null;
  } catch {
    return null;
  }
}

export function batchRequirements(call: Pick<PaidCall, "payTo" | "amountMicros">, challenge: ChallengeRef): PaymentRequirements {
  return {
    scheme: SCHEME,
    network: NETWORK,
    asset: USDC_ADDRESS,
    amount: call.amountMicros.toString(),
    payTo: call.payTo,
    maxTimeoutSeconds: env().PAYMENT_CHALLENGE_TTL_SECONDS,
    extra: {
      // The token's EIP-712 domain (the deposit's ERC-3009 authorization), the channel's terms, and the 402's signed
      // payment id, which the voucher's payload echoes back to bind it to this very call.
      name: USDC_DOMAIN.name,
      version: USDC_DOMAIN.version,
      receiverAuthorizer: receiverAuthorizer().address,
      withdrawDelay: WITHDRAW_DELAY_SECONDS,
      minDeposit: (call.amountMicros * MIN_DEPOSIT_CALLS).toString(),
      paymentId: challenge.paymentId,
      expiresAt: challenge.expiresAt,
    },
  };
}

/** Its part of the 402: its requirements added to x402's PAYMENT-REQUIRED (a document of its own if no exact offer). */
export function offerBatch(call: PaidCall, challenge: ChallengeRef, _price: RailPrice): RailOffer {
  // Vouchers pay calls; a purchase's credit is granted by the charge of a rail that settles per payment.
  if (call.purpose !== "call") return {};
  const requirements = batchRequirements(call, challenge);
  return {
    amend: [
      {
        header: "PAYMENT-REQUIRED",
        with(current) {
          const doc: PaymentRequired = (current && decode(current)) || {
            x402Version: 2,
            error: challenge.refused ?? "payment_required",
            resource: {
              url: `${call.origin}${call.path}${call.canonicalQuery ? `?${call.canonicalQuery}` : ""}`,
              description: call.summary,
              mimeType: "application/json",
            },
            accepts: [],
          };
          return encode({ ...doc, accepts: [...doc.accepts, requirements] });
        },
      },
    ],
  };
}

/** The channel's state as x402's batch-settlement responses carry it (`channelState`). */
export function channelState(c: Pick<ChannelRow, "id" | "balance" | "claimed" | "charged" | "withdrawRequestedAt">) {
  return {
    channelId: c.id,
    balance: c.balance.toString(),
    totalClaimed: c.claimed.toString(),
    withdrawRequestedAt: c.withdrawRequestedAt ? Math.floor(c.withdrawRequestedAt.getTime() / 1000) : 0,
    // Only the receiver side moves it, and this rail does not refund: it stays at its start.
    refundNonce: "0",
    chargedCumulativeAmount: c.charged.toString(),
  };
}

/**
 * The corrective 402's PAYMENT-REQUIRED: our requirements for this call with the channel's state and the latest voucher
 * the payer signed on it, which the official client verifies (its own key's signature) before it adopts the base.
 */
export function correctiveRequired(call: PaidCall, challenge: ChallengeRef, channel: ChannelRow): string {
  const requirements = batchRequirements(call, challenge);
  const doc: PaymentRequired = {
    x402Version: 2,
    error: CUMULATIVE_MISMATCH,
    resource: {
      url: `${call.origin}${call.path}${call.canonicalQuery ? `?${call.canonicalQuery}` : ""}`,
      description: call.summary,
      mimeType: "application/json",
    },
    accepts: [
      {
        ...requirements,
        extra: {
          ...requirements.extra,
          channelState: channelState(channel),
          ...(channel.signature ? { voucherState: { signedMaxClaimable: channel.signedMax.toString(), signature: channel.signature } } : {}),
        },
      },
    ],
  };
  return encode(doc);
}

/**
 * PAYMENT-RESPONSE of a voucher-paid call: no transaction of its own (a deposit's, when the call made one), the charge,
 * and the channel's state after it.
 */
export function paymentResponse(
  payer: string,
  charged: bigint,
  channel: Pick<ChannelRow, "id" | "balance" | "claimed" | "charged" | "withdrawRequestedAt">,
  deposit: { transaction: string | null; amount: bigint } | null,
): Record<string, string> {
  const response = {
    success: true,
    transaction: deposit?.transaction ?? "",
    network: NETWORK,
    payer,
    amount: deposit ? deposit.amount.toString() : "",
    extra: { chargedAmount: charged.toString(), channelState: channelState(channel) },
  };
  const value = encode(response);
  return { "PAYMENT-RESPONSE": value, "X-PAYMENT-RESPONSE": value };
}
