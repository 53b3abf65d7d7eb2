// EIP-3009 TransferWithAuthorization as USDC signs it (EIP-712 over the token's domain). One local check,
// no chain call: does the signature recover to the authorization's `from`? Smart-contract wallets
// (EIP-1271/6492) cannot be recovered this way; for them the answer is false and the facilitator, which
// asks the chain, stays the authority on validity.
import { getAddress, type Hex } from "viem";
import { CHAIN_ID, USDC_ADDRESS, USDC_DOMAIN } from "./config";
import { recoverTypedDataAddress } from "./recover-signer";
import { TRANSFER_WITH_AUTHORIZATION_TYPES } from "./transfer-authorization-hash";

export { TRANSFER_WITH_AUTHORIZATION_TYPES };

export type TransferAuthorization = { from: string; to: string; value: string; validAfter: string; validBefore: string; nonce: string };

/** True when `signature` is `authorization.from`'s EOA signature over this exact authorization on Base USDC. */
export async function signedByFrom(authorization: TransferAuthorization, signature: string): Promise<boolean> {
  const a = authorization;
  try {
    const from = getAddress(a.from);
    const signer = await recoverTypedDataAddress({
      domain: { name: USDC_DOMAIN.name, version: USDC_DOMAIN.version, chainId: CHAIN_ID, verifyingContract: USDC_ADDRESS },
      types: TRANSFER_WITH_AUTHORIZATION_TYPES,
      primaryType: "TransferWithAuthorization",
      message: {
        from,
        to: getAddress(a.to),
        value: BigInt(a.value),
        validAfter: BigInt(a.validAfter),
        validBefore: BigInt(a.validBefore),
        nonce: a.nonce as Hex,
      },
      signature: signature as Hex,
    });
    return signer === from;
  } catch {
    return false;
  }
}
