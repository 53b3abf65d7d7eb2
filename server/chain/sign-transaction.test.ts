// The fast signer must produce viem's bytes exactly (both are RFC 6979 with a low s), and the signature must recover
// to the key's address.
import { randomBytes } from "node:crypto";
import { getAddress, parseTransaction, recoverTransactionAddress, type Hex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { signEip1559Transaction } from "./sign-transaction";

const hex = (n: number) => `0x${randomBytes(n).toString("hex")}` as Hex;

describe("signEip1559Transaction", () => {
  it("is byte for byte viem's signTransaction on 100 generated keys and transactions", async () => {
    for (let i = 0; i < 100; i++) {
      const key = generatePrivateKey();
      const account = privateKeyToAccount(key);
      const tx = {
        type: "eip1559" as const,
        chainId: i % 2 ? 8453 : 1 + i,
        nonce: i * 7,
        to: getAddress(hex(20)),
        data: hex(1 + ((i * 37) % 400)),
        gas: 250_000n + BigInt(i),
        maxFeePerGas: BigInt(hex(5)),
        maxPriorityFeePerGas: BigInt(i),
        value: i % 3 ? 0n : BigInt(hex(8)),
      };
      const ours = signEip1559Transaction(key, tx);
      expect(ours).toBe(await account.signTransaction(tx));
      expect(await recoverTransactionAddress({ serializedTransaction: ours as never })).toBe(account.address);
      expect(parseTransaction(ours)).toMatchObject({ nonce: tx.nonce, to: tx.to.toLowerCase(), gas: tx.gas });
    }
  });
});
