// Linking a wallet to a person at a storefront: they sign a Sign-In with Ethereum message (EIP-4361, viem/siwe) that
// names this storefront's host and origin, Base's chain id and a nonce handed to them (spent once, within minutes); the
// signature must recover to the message's address. Then its caps can be set (per call, per UTC day, in USD; empty: none).
import { randomBytes } from "node:crypto";
import { getAddress, recoverMessageAddress, type Hex } from "viem";
import { createSiweMessage, parseSiweMessage, validateSiweMessage } from "viem/siwe";
import { AppError } from "../errors";
import { microsToUsd, parseUsd } from "../lib/money";
import { forgetWalletCaps } from "./reserve-wallet-cap";
import { findPersonWallets, insertLinkNonce, linkWalletRow, updateCaps } from "./wallet-caps.queries";

const CHAIN_ID = 8453;
const NONCE_TTL_MS = 10 * 60_000;

export type Person = { humanId: string; sellerId: string };

/** The message the person's wallet signs, with a fresh nonce kept for them. */
export async function walletLinkMessage(person: Person, input: { address: string; origin: string }): Promise<string> {
  let address: `0x${string}`;
  try {
    address = getAddress(input.address);
  } catch {
    throw new AppError("invalid_request", { detail: "that is not an Ethereum address" });
  }
  const nonce = randomBytes(16).toString("hex");
  const now = new Date();
  const expirationTime = new Date(now.getTime() + NONCE_TTL_MS);
  await insertLinkNonce({ nonce, sellerId: person.sellerId, humanId: person.humanId, expiresAt: expirationTime });
  const url = new URL(input.origin);
  return createSiweMessage({
    domain: url.host,
    address,
    statement: "Link this wallet to my account here, so the caps I set apply to its payments at this storefront.",
    uri: url.origin,
    version: "1",
    chainId: CHAIN_ID,
    nonce,
    issuedAt: now,
    expirationTime,
  });
}

/** Verify the signed message and link its wallet; the wallet (lower case). */
export async function linkWallet(person: Person, input: { message: string; signature: string; origin: string }): Promise<string> {
  const refused = (detail: string) => new AppError("invalid_request", { reason: "invalid_siwe", detail });
  const fields = parseSiweMessage(input.message);
  const url = new URL(input.origin);
  if (!fields.address || !fields.nonce || !validateSiweMessage({ message: fields, domain: url.host, time: new Date() }))
    throw refused("the message is not one this storefront handed out, or it expired");
  if (fields.uri !== url.origin || fields.chainId !== CHAIN_ID) throw refused("the message names another site or chain");
  let signer: string;
  try {
    signer = await recoverMessageAddress({ message: input.message, signature: input.signature as Hex });
  } catch {
    throw refused("the signature could not be read");
  }
  if (signer.toLowerCase() !== fields.address.toLowerCase()) throw refused("the signature is not the wallet's");
  const wallet = fields.address.toLowerCase();
  if (!(await linkWalletRow({ nonce: fields.nonce, sellerId: person.sellerId, humanId: person.humanId, wallet })))
    throw refused("this message was already used or has expired; ask for a new one");
  return wallet;
}

export async function setWalletCaps(person: Person, input: { wallet: string; perCallUsd: string; perDayUsd: string }): Promise<void> {
  const parse = (v: string) => {
    if (v.trim() === "") return null;
    const micros = parseUsd(v);
    if (micros === null) throw new AppError("invalid_request", { detail: "a cap is a dollar amount such as 5.00, or empty for none" });
    return micros;
  };
  const ok = await updateCaps({ ...person, wallet: input.wallet.toLowerCase(), perCallMicros: parse(input.perCallUsd), perDayMicros: parse(input.perDayUsd) });
  if (!ok) throw new AppError("not_found", { detail: "no wallet of yours is linked with that address here" });
  forgetWalletCaps(person.sellerId);
}

export async function listPersonWallets(person: Person) {
  const rows = await findPersonWallets(person.humanId, person.sellerId);
  const usd = (v: bigint | null) => (v === null ? null : microsToUsd(v));
  return rows.map((r) => ({ wallet: r.wallet, perCallUsd: usd(r.perCallMicros), perDayUsd: usd(r.perDayMicros), linkedAt: r.linkedAt.toISOString() }));
}
