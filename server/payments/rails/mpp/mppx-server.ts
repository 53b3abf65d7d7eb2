// mppx's server, configured for our one asset: the `evm` charge method for USDC on Base (EIP-3009
// `authorization` credentials, recipient = the seller's payTo). One instance per (realm, payTo), built once.
//
// What mppx does here, and what it does not:
//  - it issues challenges (HMAC-bound ids over realm, method, intent, request, expiry and our opaque binding),
//    parses credentials and validates them without side effects (`validateCredential`: challenge id, expiry,
//    route binding, the EIP-712 signature, nonce = the challenge hash, amount and recipient);
//  - it does not settle. mppx's own route wrapper broadcasts the payment before the handler runs; we charge only
//    after the upstream answered 2xx or 3xx, through the settlement outbox (server/payments/settle-payment.ts) shared
//    with every rail. The `settle` hook mppx asks for is therefore never reached through mppx, and says so.
import { Errors } from "mppx";
// mppx's narrow entry points (`mppx/server` also loads the tempo and Stripe methods; the objects are the same).
import { evm } from "mppx/evm/server";
import { Mppx } from "mppx/server/core";
import { CHAIN_ID, USDC_ADDRESS, USDC_DOMAIN } from "../../../chain/config";
import { recoverTypedDataAddress } from "../../../chain/recover-signer";
import { mppxServer } from "../../mpp/mppx-servers";

export const USDC_DECIMALS = 6;

function build(secretKey: string, realm: string, payTo: `0x${string}`) {
  return Mppx.create({
    secretKey,
    realm,
    methods: [
      evm.charge({
        currency: USDC_ADDRESS,
        chainId: CHAIN_ID,
        decimals: USDC_DECIMALS,
        recipient: payTo,
        authorization: { name: USDC_DOMAIN.name, version: USDC_DOMAIN.version },
        // libsecp256k1 (WebAssembly) in place of viem's JavaScript curve: same answers, 1.7 -> 0.3 ms a credential.
        // An injection point added by patches/mppx+0.11.0.patch; mppx's checks are otherwise its own.
        recoverTypedDataAddress: recoverForMppx,
        settle: async () => {
          throw new Error("MPP payments settle through the storefront's settlement outbox, not through mppx broadcast");
        },
      }),
    ],
  });
}

/**
 * mppx calls the recovery without catching what it throws: a signature that recovers to no key (r not on the curve,
 * say) would escape validateCredential as a raw error, a 500. It is a failed verification, as a wrong signer is.
 */
const recoverForMppx: typeof recoverTypedDataAddress = async (parameters) => {
  try {
    return await recoverTypedDataAddress(parameters);
  } catch {
    throw new Errors.VerificationFailedError({ reason: "the signature does not recover to a signer" });
  }
};

/** The mppx server for this storefront host and payout address (cached; a handful per process). */
export function evmMppxServer(realm: string, payTo: string) {
  return mppxServer(`evm|${realm}|${payTo.toLowerCase()}`, (secretKey) => build(secretKey, realm, payTo as `0x${string}`));
}
