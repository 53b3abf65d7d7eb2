// Decoding an x402 batch-settlement payload: x402 v2 in PAYMENT-SIGNATURE (or X-PAYMENT), base64 JSON whose echoed
// requirements name the scheme `batch-settlement`. Its payload is a voucher (a channel that has funds), a deposit (the
// first call, or a top-up: an ERC-3009 authorization into the channel plus the voucher) or a refund request. Shapes
// are checked strictly here (addresses, 32-byte ids, integers that fit uint128, 65-byte signatures), so nothing
// downstream sees a value the contract could not take. No I/O.
import { z } from "zod";
import { NETWORK } from "../../../chain/config";
import type { ChannelConfig } from "./channel-terms";

export const SCHEME = "batch-settlement";

const UINT128_MAX = (1n << 128n) - 1n;
const address = z.string().regex(/^0x[0-9a-fA-F]{40}$/);
const bytes32 = z.string().regex(/^0x[0-9a-fA-F]{64}$/);
const signature = z.string().regex(/^0x[0-9a-fA-F]{130}$/, "a 65-byte signature");
const uint = z
  .string()
  .regex(/^\d{1,39}$/)
  .refine((s) => BigInt(s) <= UINT128_MAX, "fits uint128");

const configSchema = z.object({
  payer: address,
  payerAuthorizer: address,
  receiver: address,
  receiverAuthorizer: address,
  token: address,
  withdrawDelay: z
    .number()
    .int()
    .min(0)
    .max(2 ** 40 - 1),
  salt: bytes32,
});
const voucherSchema = z.object({ channelId: bytes32, maxClaimableAmount: uint, signature });
const erc3009Schema = z.object({ validAfter: uint, validBefore: uint, salt: bytes32, signature });

const payloadSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("voucher"), channelConfig: configSchema, voucher: voucherSchema }),
  z.object({
    type: z.literal("deposit"),
    channelConfig: configSchema,
    voucher: voucherSchema,
    deposit: z.object({ amount: uint, authorization: z.object({ erc3009Authorization: erc3009Schema }) }),
  }),
  z.object({ type: z.literal("refund"), channelConfig: configSchema, voucher: voucherSchema, amount: uint.optional() }),
]);

const acceptedSchema = z.looseObject({
  scheme: z.literal(SCHEME),
  network: z.string(),
  asset: z.string(),
  amount: z.string().regex(/^\d{1,30}$/),
  payTo: z.string(),
  extra: z.looseObject({}).optional(),
});

const proofSchema = z.looseObject({ x402Version: z.literal(2), accepted: acceptedSchema, payload: payloadSchema });

export type BatchPayload = z.infer<typeof payloadSchema>;

export type BatchProof = {
  payload: BatchPayload;
  config: ChannelConfig;
  channelId: `0x${string}`;
  /** The voucher's cumulative ceiling. */
  ceiling: bigint;
  /** The requirements the client says it accepted (our offer echoed: extra.paymentId is the 402's signed id). */
  accepted: z.infer<typeof acceptedSchema>;
};

export type BatchProofRead = { type: "none" } | { type: "invalid"; detail: string } | { type: "batch"; proof: BatchProof; header: string };

const MAX_HEADER = 16 * 1024;

export function readBatchProof(headers: Headers): BatchProofRead {
  const value = headers.get("payment-signature") ?? headers.get("x-payment");
  if (!value) return { type: "none" };
  const header = headers.has("payment-signature") ? "PAYMENT-SIGNATURE" : "X-PAYMENT";
  if (value.length > MAX_HEADER) return { type: "none" };
  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(value.trim(), "base64").toString("utf8"));
  } catch {
    return { type: "none" };
  }
  // Another scheme's payload (exact) is the x402 rail's, malformed or not.
  const scheme = (json as { accepted?: { scheme?: unknown } } | null)?.accepted?.scheme;
  if (scheme !== SCHEME) return { type: "none" };
  const parsed = proofSchema.safeParse(json);
  if (!parsed.success) return { type: "invalid", detail: `${header} is not an x402 v2 batch-settlement payload (voucher, deposit or refund)` };
  const p = parsed.data;
  if (p.accepted.network !== NETWORK) return { type: "invalid", detail: `batch-settlement is accepted on ${NETWORK} only` };
  const c = p.payload.channelConfig;
  const config: ChannelConfig = {
    payer: c.payer as `0x${string}`,
    payerAuthorizer: c.payerAuthorizer as `0x${string}`,
    receiver: c.receiver as `0x${string}`,
    receiverAuthorizer: c.receiverAuthorizer as `0x${string}`,
    token: c.token as `0x${string}`,
    withdrawDelay: c.withdrawDelay,
    salt: c.salt as `0x${string}`,
  };
  return {
    type: "batch",
    header,
    proof: {
      payload: p.payload,
      config,
      channelId: p.payload.voucher.channelId.toLowerCase() as `0x${string}`,
      ceiling: BigInt(p.payload.voucher.maxClaimableAmount),
      accepted: p.accepted,
    },
  };
}
