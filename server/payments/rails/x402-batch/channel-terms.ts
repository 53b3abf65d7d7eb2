// The terms this storefront opens x402 batch-settlement channels on, and the checks a channel's config and a voucher
// must pass before anything is looked up: the config must be one we offered (our payTo as receiver, our receiver
// authorizer, USDC, our withdraw delay, a payer authorizer that signs with ECDSA) and hash to the channel id it claims;
// the voucher must be that authorizer's signature, in the exact form the contract accepts (65 bytes, low s), so
// every voucher we accept is one a claim can carry. No I/O: the signature is recovered here, in memory.
import "server-only";
import { BATCH_SETTLEMENT_ADDRESS, BATCH_SETTLEMENT_DOMAIN } from "@x402/evm";
import * as secp256k1 from "tiny-secp256k1";
import { concat, encodeAbiParameters, hexToBytes, keccak256, toHex, type Address, type Hex } from "viem";
import { privateKeyToAccount, type PrivateKeyAccount } from "viem/accounts";
import { CHAIN_ID, USDC_ADDRESS } from "../../../chain/config";
import { env } from "../../../env";
import { deriveKey } from "../../../lib/derive-key";

/**
 * How long a payer's timed withdrawal waits (seconds): the time we have to claim what was charged once a payer starts
 * leaving, even through an RPC outage. A day; a payer who wants its escrow back sooner asks for it (`refund`).
 */
export const WITHDRAW_DELAY_SECONDS = 86_400;
/**
 * The deposit a channel is asked to open with, in calls of the price (`extra.minDeposit`): @x402/evm's client deposits
 * it when its spend controls allow (capped at five times its per-payment cap), so a channel lasts many calls and the
 * deposit transaction, whose gas we pay, is one per many calls.
 */
export const MIN_DEPOSIT_CALLS = 1000n;
/** Below this many calls of the price a deposit is refused: its gas would be ours for a handful of calls. */
export const DEPOSIT_FLOOR_CALLS = 5n;

export type ChannelConfig = {
  payer: Address;
  payerAuthorizer: Address;
  receiver: Address;
  receiverAuthorizer: Address;
  token: Address;
  withdrawDelay: number;
  salt: Hex;
};

let authorizer: { secret: string; account: PrivateKeyAccount } | undefined;

/**
 * The key that authorizes our claims and refunds (a channel's `receiverAuthorizer`): derived from APP_SECRET, so every
 * instance offers the same one and a channel opened through one instance is claimed by any. Rotating APP_SECRET changes
 * it: claim (and refund) every open channel first, or they can no longer be claimed.
 */
export function receiverAuthorizer(): PrivateKeyAccount {
  const secret = env().APP_SECRET;
  if (authorizer?.secret !== secret) {
    // A 32-byte HKDF output is a valid secp256k1 key but for a 2^-128 chance, which privateKeyToAccount would refuse.
    authorizer = { secret, account: privateKeyToAccount(toHex(deriveKey("x402-batch-receiver-authorizer"))) };
  }
  return authorizer.account;
}

const DOMAIN = { ...BATCH_SETTLEMENT_DOMAIN, chainId: CHAIN_ID, verifyingContract: BATCH_SETTLEMENT_ADDRESS } as const;
/** The domain separator of the settlement contract on this chain (what every channel id and voucher digest is under). */
const DOMAIN_SEPARATOR = keccak256(
  encodeAbiParameters(
    [{ type: "bytes32" }, { type: "bytes32" }, { type: "bytes32" }, { type: "uint256" }, { type: "address" }],
    [
      keccak256(toHex("EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)")),
      keccak256(toHex(DOMAIN.name)),
      keccak256(toHex(DOMAIN.version)),
      BigInt(DOMAIN.chainId),
      DOMAIN.verifyingContract,
    ],
  ),
);
const VOUCHER_TYPEHASH = keccak256(toHex("Voucher(bytes32 channelId,uint128 maxClaimableAmount)"));

/** The EIP-712 digest of Voucher(channelId, maxClaimableAmount), as the contract's getVoucherDigest computes it. */
export function voucherDigest(channelId: Hex, maxClaimableAmount: bigint): Hex {
  const struct = keccak256(concat([VOUCHER_TYPEHASH, channelId, toHex(maxClaimableAmount, { size: 32 })]));
  return keccak256(concat(["0x1901", DOMAIN_SEPARATOR, struct]));
}

/** The typed-data domain of the settlement contract here (the receiver authorizer signs claims and refunds under it). */
export const SETTLEMENT_DOMAIN = DOMAIN;

const CHANNEL_CONFIG_TYPEHASH = keccak256(
  toHex("ChannelConfig(address payer,address payerAuthorizer,address receiver,address receiverAuthorizer,address token,uint40 withdrawDelay,bytes32 salt)"),
);
const word = (hex: string) => `0x${hex.slice(2).toLowerCase().padStart(64, "0")}` as Hex;

/**
 * The channel id: the EIP-712 hash of its config under the settlement contract's domain, as @x402/evm's computeChannelId
 * and the contract's getChannelId compute it (a test holds the three together), encoded by hand: viem's typed-data
 * hashing spent about a millisecond of CPU per voucher.
 */
export function channelIdOf(config: ChannelConfig): Hex {
  const key =
    `${config.payer}${config.payerAuthorizer}${config.receiver}${config.receiverAuthorizer}${config.token}${config.withdrawDelay}${config.salt}`.toLowerCase();
  const known = channelIds.get(key);
  if (known) return known;
  if (channelIds.size >= 10_000) channelIds.delete(channelIds.keys().next().value!);
  const id = hashChannelConfig(config);
  channelIds.set(key, id);
  return id;
}

/** Recent configs' ids: a channel's every voucher carries its config, hashed once here. */
const channelIds = new Map<string, Hex>();

function hashChannelConfig(config: ChannelConfig): Hex {
  const struct = keccak256(
    concat([
      CHANNEL_CONFIG_TYPEHASH,
      word(config.payer),
      word(config.payerAuthorizer),
      word(config.receiver),
      word(config.receiverAuthorizer),
      word(config.token),
      toHex(config.withdrawDelay, { size: 32 }),
      word(config.salt),
    ]),
  );
  return keccak256(concat(["0x1901", DOMAIN_SEPARATOR, struct]));
}

/** What is wrong with a channel's config for this call, or null: one we offered, hashing to the id it claims. */
export function configProblem(config: ChannelConfig, channelId: string, payTo: string): string | null {
  const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();
  if (!same(config.receiver, payTo)) return "the channel's receiver is not this seller's payTo";
  if (!same(config.receiverAuthorizer, receiverAuthorizer().address)) return "the channel's receiverAuthorizer is not the one this storefront offers";
  if (!same(config.token, USDC_ADDRESS)) return "the channel's token is not USDC";
  if (config.withdrawDelay !== WITHDRAW_DELAY_SECONDS) return `the channel's withdrawDelay is not ${WITHDRAW_DELAY_SECONDS}`;
  if (/^0x0{40}$/i.test(config.payer)) return "the channel has no payer";
  // Zero delegates voucher checks to the payer (ERC-1271 for smart wallets): a chain call per voucher, which a voucher
  // verified in memory cannot make.
  if (/^0x0{40}$/i.test(config.payerAuthorizer)) return "vouchers must be signed by an EOA payerAuthorizer (ERC-1271 vouchers are not accepted)";
  if (channelIdOf(config) !== channelId.toLowerCase()) return "the channel id is not the hash of its config";
  return null;
}

/** secp256k1n / 2: a larger `s` is the malleated twin of a valid signature, which the contract refuses. */
const MAX_S = 0x7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a0n;

/**
 * Whether `signature` is the payer authorizer's voucher for this ceiling, in the form the contract accepts: 65 bytes,
 * v in {0, 1, 27, 28}, s in the lower half (anything else would make a claim carrying it revert). Synchronous, on
 * libsecp256k1: a voucher is checked in memory, before any I/O.
 */
export function voucherSignedBy(signer: Address, channelId: Hex, maxClaimableAmount: bigint, signature: Hex): boolean {
  if (!/^0x[0-9a-fA-F]{130}$/.test(signature)) return false;
  const v = parseInt(signature.slice(130), 16);
  if (![0, 1, 27, 28].includes(v) || BigInt(`0x${signature.slice(66, 130)}`) > MAX_S) return false;
  try {
    const publicKey = secp256k1.recover(
      hexToBytes(voucherDigest(channelId, maxClaimableAmount)),
      hexToBytes(signature.slice(0, 130) as Hex),
      (v >= 27 ? v - 27 : v) as 0 | 1,
      false,
    );
    // Uncompressed: 0x04 || x || y; the address is the last 20 bytes of keccak256(x || y).
    return publicKey !== null && `0x${keccak256(publicKey.subarray(1)).slice(26)}` === signer.toLowerCase();
  } catch {
    return false;
  }
}
