// The in-memory checks of a voucher, against @x402/evm's own definitions: the channel id and voucher digest encoded
// by hand here are the ones its client signs (and the contract checks: contracts/batch-settlement.test.ts), and a
// voucher passes only in the exact form a claim can carry.
import { BATCH_SETTLEMENT_ADDRESS, BATCH_SETTLEMENT_DOMAIN, voucherTypes } from "@x402/evm";
import { computeChannelId, signVoucher } from "@x402/evm/batch-settlement/client";
import { hashTypedData, type Hex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { channelIdOf, voucherDigest, voucherSignedBy, type ChannelConfig } from "./channel-terms";

const payer = privateKeyToAccount(generatePrivateKey());
const config: ChannelConfig = {
  payer: payer.address,
  payerAuthorizer: payer.address,
  receiver: "0xBcd4042DE499D14e55001CcbB24a551F3b954096",
  receiverAuthorizer: "0x1111111111111111111111111111111111111111",
  token: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
  withdrawDelay: 86_400,
  salt: `0x${"ab".repeat(32)}`,
};

describe("channel ids and voucher digests", () => {
  it("are @x402/evm's, for any salt and delay", () => {
    for (const salt of [`0x${"00".repeat(32)}`, `0x${"ff".repeat(32)}`, `0x${"5a".repeat(32)}`] as Hex[])
      for (const withdrawDelay of [900, 86_400, 2_592_000]) {
        const c = { ...config, salt, withdrawDelay };
        expect(channelIdOf(c)).toBe(computeChannelId(c, "eip155:8453").toLowerCase());
      }
    const id = channelIdOf(config);
    const domain = { ...BATCH_SETTLEMENT_DOMAIN, chainId: 8453, verifyingContract: BATCH_SETTLEMENT_ADDRESS } as const;
    for (const ceiling of [1n, 20_000n, (1n << 128n) - 1n])
      expect(voucherDigest(id, ceiling)).toBe(
        hashTypedData({ domain, types: voucherTypes, primaryType: "Voucher", message: { channelId: id, maxClaimableAmount: ceiling } }),
      );
  });
});

describe("a voucher's signature", () => {
  it("passes only as the payer authorizer's, over this channel and ceiling, on this chain, 65 bytes with a low s", async () => {
    const id = channelIdOf(config);
    const { signature } = await signVoucher(payer, id, "40000", "eip155:8453");
    expect(voucherSignedBy(payer.address, id, 40_000n, signature)).toBe(true);
    expect(voucherSignedBy(payer.address, id, 40_001n, signature)).toBe(false);
    expect(voucherSignedBy(privateKeyToAccount(generatePrivateKey()).address, id, 40_000n, signature)).toBe(false);
    expect(voucherSignedBy(payer.address, channelIdOf({ ...config, salt: `0x${"cd".repeat(32)}` }), 40_000n, signature)).toBe(false);
    const otherChain = await signVoucher(payer, id, "40000", "eip155:84532");
    expect(voucherSignedBy(payer.address, id, 40_000n, otherChain.signature)).toBe(false);
    // The same signature made malleable (s -> n - s, v flipped): ecrecover would accept it, the contract does not.
    const n = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
    const s = BigInt(`0x${signature.slice(66, 130)}`);
    const v = parseInt(signature.slice(130, 132), 16);
    const high = `${signature.slice(0, 66)}${(n - s).toString(16).padStart(64, "0")}${(v === 27 ? 28 : 27).toString(16)}` as Hex;
    expect(voucherSignedBy(payer.address, id, 40_000n, high)).toBe(false);
    expect(voucherSignedBy(payer.address, id, 40_000n, signature.slice(0, 130) as Hex)).toBe(false);
  });
});
