// The direct EIP-3009 digest must be viem's hashTypedData digest, and anything but the canonical shape must be left to
// viem (null), so odd input keeps viem's answer or error.
import { randomBytes } from "node:crypto";
import { getAddress, hashTypedData, type Hex } from "viem";
import { describe, expect, it } from "vitest";
import { CHAIN_ID, USDC_ADDRESS, USDC_DOMAIN } from "./config";
import { TRANSFER_WITH_AUTHORIZATION_TYPES, transferAuthorizationDigest } from "./transfer-authorization-hash";

const MAX = (1n << 256n) - 1n;
const hex = (bytes: number) => `0x${randomBytes(bytes).toString("hex")}` as Hex;
const uint = (i: number) => [0n, 1n, MAX, BigInt(hex(32)), BigInt(hex(6)), BigInt(i)][i % 6]!;
const domain = { name: USDC_DOMAIN.name, version: USDC_DOMAIN.version, chainId: CHAIN_ID, verifyingContract: USDC_ADDRESS as Hex };

function generated(i: number) {
  const address = () => (i % 2 ? getAddress(hex(20)) : (hex(20).toLowerCase() as Hex));
  return {
    domain: i % 3 ? domain : { ...domain, chainId: BigInt(i), name: `Token ${i}`, verifyingContract: getAddress(hex(20)) },
    types: TRANSFER_WITH_AUTHORIZATION_TYPES,
    primaryType: "TransferWithAuthorization" as const,
    message: { from: address(), to: address(), value: uint(i), validAfter: uint(i + 1), validBefore: uint(i + 2), nonce: hex(32) },
  };
}

/** A mixed-case address whose case does not match its EIP-55 checksum (viem refuses it). */
function badChecksum(): string {
  for (;;) {
    const a = getAddress(hex(20));
    const i = a.slice(2).search(/[a-fA-F]/);
    if (i < 0) continue;
    const c = a[i + 2]!;
    const flipped = `${a.slice(0, i + 2)}${c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase()}${a.slice(i + 3)}`;
    if (/[a-f]/.test(flipped.slice(2)) && /[A-F]/.test(flipped.slice(2))) return flipped;
  }
}

describe("transferAuthorizationDigest", () => {
  it("equals viem's hashTypedData on 500 generated authorizations and domains", () => {
    for (let i = 0; i < 500; i++) {
      const typed = generated(i);
      expect(
        transferAuthorizationDigest(typed),
        JSON.stringify(typed, (_, v) => (typeof v === "bigint" ? v.toString() : v)),
      ).toBe(hashTypedData(typed));
    }
  });

  it("takes mppx's shape (its domain lists chainId, name, verifyingContract, version in that order)", () => {
    const typed = generated(1);
    const mppxDomain = { chainId: domain.chainId, name: domain.name, verifyingContract: domain.verifyingContract, version: domain.version };
    expect(transferAuthorizationDigest({ ...typed, domain: mppxDomain })).toBe(hashTypedData({ ...typed, domain: mppxDomain }));
  });

  it("leaves every other shape to viem", () => {
    const t = generated(1);
    const m = t.message;
    const fields = TRANSFER_WITH_AUTHORIZATION_TYPES.TransferWithAuthorization;
    const others: Record<string, unknown>[] = [
      { ...t, primaryType: "Permit" },
      { ...t, types: { TransferWithAuthorization: [...fields].reverse() } },
      { ...t, types: { TransferWithAuthorization: fields.slice(0, 5) } },
      { ...t, types: { ...t.types, EIP712Domain: [{ name: "name", type: "string" }] } },
      { ...t, types: { TransferWithAuthorization: fields.map((f) => (f.name === "value" ? { ...f, type: "uint128" } : f)) } },
      { ...t, domain: { ...domain, salt: hex(32) } },
      { ...t, domain: { name: domain.name, chainId: domain.chainId, verifyingContract: domain.verifyingContract } },
      { ...t, domain: { ...domain, verifyingContract: "0x1234" } },
      { ...t, domain: { ...domain, chainId: -1 } },
      { ...t, message: { ...m, value: 5 } },
      { ...t, message: { ...m, value: -1n } },
      { ...t, message: { ...m, value: MAX + 1n } },
      { ...t, message: { ...m, nonce: hex(31) } },
      { ...t, message: { ...m, nonce: `0X${m.nonce.slice(2)}` } },
      { ...t, message: { ...m, from: badChecksum() } },
      { ...t, message: { ...m, to: "not an address" } },
      { ...t, message: { ...m, extra: 1n } },
      { ...t, message: undefined },
    ];
    others.forEach((other, i) => expect(transferAuthorizationDigest(other), `case ${i}`).toBeNull());
  });
});
