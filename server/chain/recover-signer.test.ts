// The fast recovery must answer exactly as viem's: the same address for every signature viem accepts, an error for
// every one it refuses. Generated keys and messages, then the edge shapes a hostile credential can carry.
import { hashTypedData, recoverTypedDataAddress as viemRecover, type Hex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { TRANSFER_WITH_AUTHORIZATION_TYPES, signedByFrom } from "./eip3009";
import { CHAIN_ID, USDC_ADDRESS, USDC_DOMAIN } from "./config";
import { recoverHashSigner, recoverTypedDataAddress } from "./recover-signer";

const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
const domain = { name: USDC_DOMAIN.name, version: USDC_DOMAIN.version, chainId: CHAIN_ID, verifyingContract: USDC_ADDRESS } as const;
const hex32 = (n: bigint) => n.toString(16).padStart(64, "0");

function authorization(from: `0x${string}`, i: number) {
  return {
    from,
    to: "0x00000000000000000000000000000000000000a1",
    value: BigInt(1 + i * 997),
    validAfter: 0n,
    validBefore: BigInt(1_900_000_000 + i),
    nonce: `0x${hex32(BigInt(i) * 0x1234567n + 1n)}` as Hex,
  } as const;
}

const typed = (message: ReturnType<typeof authorization>) =>
  ({ domain, types: TRANSFER_WITH_AUTHORIZATION_TYPES, primaryType: "TransferWithAuthorization", message }) as const;

/** Both answers for one signature: the address, or that it threw. */
async function both(message: ReturnType<typeof authorization>, signature: Hex) {
  const settle = (p: Promise<string>) => p.then((a) => ({ address: a })).catch(() => ({ threw: true }));
  return { ours: await settle(recoverTypedDataAddress({ ...typed(message), signature })), viem: await settle(viemRecover({ ...typed(message), signature })) };
}

/** The same signature with s replaced by n - s and the recovery bit flipped (the "high-s" twin). */
function highS(signature: Hex): Hex {
  const s = BigInt(`0x${signature.slice(66, 130)}`);
  const v = parseInt(signature.slice(130), 16);
  return `${signature.slice(0, 66)}${hex32(N - s)}${(v === 27 ? 28 : 27).toString(16)}` as Hex;
}

describe("recoverTypedDataAddress (libsecp256k1)", () => {
  it("answers as viem for 150 generated keys and messages, and for their v = 0/1 and high-s forms", async () => {
    for (let i = 0; i < 150; i++) {
      const account = privateKeyToAccount(generatePrivateKey());
      const message = authorization(account.address, i);
      const signature = await account.signTypedData(typed(message));
      const v = parseInt(signature.slice(130), 16);
      const forms = [signature, `${signature.slice(0, 130)}0${v - 27}` as Hex, highS(signature), signature.toUpperCase().replace("0X", "0x") as Hex];
      for (const form of forms) {
        const r = await both(message, form);
        expect(r.ours, form).toEqual(r.viem);
      }
      expect(await recoverTypedDataAddress({ ...typed(message), signature })).toBe(account.address);
      // Another message under the same signature recovers someone else (never the signer).
      const other = await recoverTypedDataAddress({ ...typed({ ...message, value: message.value + 1n }), signature });
      expect(other).not.toBe(account.address);
    }
  });

  it("refuses what viem refuses: zero or out-of-range r and s, a bad v, the wrong length", async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const message = authorization(account.address, 7);
    const good = await account.signTypedData(typed(message));
    const r = good.slice(2, 66);
    const s = good.slice(66, 130);
    const cases: Hex[] = [
      `0x${"0".repeat(64)}${s}1b`,
      `0x${r}${"0".repeat(64)}1b`,
      `0x${hex32(N)}${s}1b`,
      `0x${r}${hex32(N)}1c`,
      `0x${"f".repeat(64)}${s}1b`,
      `0x${r}${s}1d`,
      `0x${r}${s}02`,
      `0x${r}${s}ff`,
      `0x${r}${s}`,
      `${good}00`,
      "0x",
    ];
    for (const signature of cases) {
      const result = await both(message, signature);
      expect(result.ours, signature).toEqual(result.viem);
    }
  });

  it("takes viem's other signature shapes (bytes, an r/s/v object) with viem's answers", async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const message = authorization(account.address, 3);
    const signature = await account.signTypedData(typed(message));
    const bytes = Uint8Array.from(Buffer.from(signature.slice(2), "hex"));
    const object = { r: `0x${signature.slice(2, 66)}` as Hex, s: `0x${signature.slice(66, 130)}` as Hex, v: BigInt(parseInt(signature.slice(130), 16)) };
    expect(await recoverTypedDataAddress({ ...typed(message), signature: bytes })).toBe(account.address);
    expect(await recoverTypedDataAddress({ ...typed(message), signature: object })).toBe(account.address);
  });

  it("remembers a recovery: asking twice gives the same address, and a different hash is recovered afresh", async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const message = authorization(account.address, 11);
    const signature = await account.signTypedData(typed(message));
    const hash = hashTypedData(typed(message));
    expect(await recoverHashSigner(hash, signature)).toBe(account.address);
    expect(await recoverHashSigner(hash, signature)).toBe(account.address);
    const otherHash = hashTypedData(typed({ ...message, nonce: `0x${"ab".repeat(32)}` }));
    expect(await recoverHashSigner(otherHash, signature)).not.toBe(account.address);
  });

  it("signedByFrom: true for the signer's own authorization, false for a tampered one or a garbage signature", async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const message = authorization(account.address, 5);
    const signature = await account.signTypedData(typed(message));
    const wire = { ...message, value: message.value.toString(), validAfter: "0", validBefore: message.validBefore.toString() };
    expect(await signedByFrom(wire, signature)).toBe(true);
    expect(await signedByFrom({ ...wire, value: "1" }, signature)).toBe(false);
    expect(await signedByFrom(wire, "0x1234")).toBe(false);
    expect(await signedByFrom({ ...wire, from: "not an address" }, signature)).toBe(false);
  });
});
