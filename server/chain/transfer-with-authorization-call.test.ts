// The direct calldata must be viem's encodeFunctionData, byte for byte, on generated input; odd input keeps viem's
// answer or error.
import { randomBytes } from "node:crypto";
import { encodeFunctionData, getAddress, type Hex } from "viem";
import { describe, expect, it } from "vitest";
import { TRANSFER_WITH_AUTHORIZATION_ABI, encodeTransferWithAuthorization, type TransferWithAuthorization } from "./transfer-with-authorization-call";

const hex = (n: number) => `0x${randomBytes(n).toString("hex")}` as Hex;
const MAX = (1n << 256n) - 1n;

function viem(a: TransferWithAuthorization, signature: string): Hex | "threw" {
  try {
    return encodeFunctionData({
      abi: TRANSFER_WITH_AUTHORIZATION_ABI,
      functionName: "transferWithAuthorization",
      args: [a.from as Hex, a.to as Hex, BigInt(a.value), BigInt(a.validAfter), BigInt(a.validBefore), a.nonce as Hex, signature as Hex],
    });
  } catch {
    return "threw";
  }
}

function ours(a: TransferWithAuthorization, signature: string): Hex | "threw" {
  try {
    return encodeTransferWithAuthorization(a, signature);
  } catch {
    return "threw";
  }
}

describe("encodeTransferWithAuthorization", () => {
  it("is viem's calldata for 300 generated authorizations and signatures of every length", () => {
    for (let i = 0; i < 300; i++) {
      const a = {
        from: i % 2 ? getAddress(hex(20)) : hex(20),
        to: i % 3 ? getAddress(hex(20)) : hex(20).toUpperCase().replace("0X", "0x"),
        value: [0n, 1n, MAX, BigInt(hex(8))][i % 4]!.toString(),
        validAfter: BigInt(hex(4)).toString(),
        validBefore: (i % 5 ? BigInt(hex(5)) : MAX).toString(),
        nonce: i % 2 ? hex(32) : hex(32).toUpperCase().replace("0X", "0x"),
      };
      const signature = hex([65, 64, 0, 1, 33, 200][i % 6]!);
      expect(ours(a, signature)).toBe(viem(a, signature));
    }
  });

  it("answers odd input as viem does (its calldata or its error)", () => {
    const a = { from: getAddress(hex(20)), to: getAddress(hex(20)), value: "1", validAfter: "0", validBefore: "9", nonce: hex(32) };
    const odd: [TransferWithAuthorization, string][] = [
      [{ ...a, value: (MAX + 1n).toString() }, hex(65)],
      [{ ...a, value: "-1" }, hex(65)],
      [{ ...a, value: "0x10" }, hex(65)],
      [{ ...a, value: "007" }, hex(65)],
      [{ ...a, value: "1.5" }, hex(65)],
      [{ ...a, from: "0x1234" }, hex(65)],
      [
        {
          ...a,
          to:
            a.to.slice(0, 2) +
            a.to
              .slice(2)
              .split("")
              .map((c, i) => (i === a.to.slice(2).search(/[a-fA-F]/) ? (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase()) : c))
              .join(""),
        },
        hex(65),
      ],
      [{ ...a, nonce: hex(31) }, hex(65)],
      [a, "0x123"],
      [a, "not hex"],
    ];
    for (const [x, signature] of odd) expect(ours(x, signature), JSON.stringify(x) + signature).toBe(viem(x, signature));
  });
});
