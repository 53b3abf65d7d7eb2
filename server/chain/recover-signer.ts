// Who signed an EIP-712 message: viem's recoverTypedDataAddress, with the elliptic-curve step on libsecp256k1
// (tiny-secp256k1, compiled to WebAssembly) instead of viem's JavaScript curve, and EIP-3009 authorizations hashed
// directly (./transfer-authorization-hash.ts). Same answers, about a fifth of the
// time: the recovery was the largest single cost of verifying an MPP credential (1.7 ms of JavaScript per call,
// measured with SERVER_CPU_PROF on the bench server; 0.3 ms here).
//
// The contract is viem's: the signer's checksummed address, or viem's own error. Only the common shape takes the fast
// path (a 65-byte hex signature with v in {0, 1, 27, 28}); anything else, and any signature libsecp256k1 refuses,
// goes to viem, so an odd input gets exactly viem's answer or error. A test holds the two to the same results.
//
// A few recent recoveries are remembered: with the per-payer rate limit on, the paid path asks who signed a credential
// (to count the wallet) and then mppx asks again while validating it; the second answer is free.
import * as secp256k1 from "tiny-secp256k1";
import {
  checksumAddress,
  hashTypedData,
  hexToBytes,
  keccak256,
  recoverAddress,
  type Address,
  type ByteArray,
  type Hex,
  type Signature,
  type TypedDataDefinition,
  type recoverTypedDataAddress as viemRecoverTypedDataAddress,
} from "viem";
import { transferAuthorizationDigest } from "./transfer-authorization-hash";

const HASH = /^0x[0-9a-fA-F]{64}$/;
const SIGNATURE_65 = /^0x[0-9a-fA-F]{130}$/;
const MEMO_SIZE = 1024;
const memo = new Map<string, Address>();

function remember(key: string, address: Address): Address {
  if (memo.size >= MEMO_SIZE) memo.delete(memo.keys().next().value!);
  memo.set(key, address);
  return address;
}

/** The address whose key signed the 32-byte `hash`, as viem's recoverAddress answers it. */
export async function recoverHashSigner(hash: Hex, signature: Hex | ByteArray | Signature): Promise<Address> {
  if (typeof signature !== "string" || !SIGNATURE_65.test(signature) || !HASH.test(hash)) return recoverAddress({ hash, signature });
  const key = `${hash}${signature}`.toLowerCase();
  const known = memo.get(key);
  if (known) return known;
  const v = parseInt(signature.slice(130), 16);
  const recoveryId = v >= 27 ? v - 27 : v;
  if (recoveryId === 0 || recoveryId === 1) {
    const publicKey = secp256k1.recover(hexToBytes(hash), hexToBytes(signature.slice(0, 130) as Hex), recoveryId, false);
    // Uncompressed: 0x04 || x || y; the address is the last 20 bytes of keccak256(x || y).
    if (publicKey) return remember(key, checksumAddress(`0x${keccak256(publicKey.subarray(1)).slice(26)}`));
  }
  return remember(key, await recoverAddress({ hash, signature }));
}

/** Drop-in for viem's recoverTypedDataAddress (and what mppx's evm charge method is given to recover with). */
export const recoverTypedDataAddress: typeof viemRecoverTypedDataAddress = async (parameters) => {
  const { signature, ...typed } = parameters;
  return recoverHashSigner(transferAuthorizationDigest(typed) ?? hashTypedData(typed as TypedDataDefinition), signature);
};
