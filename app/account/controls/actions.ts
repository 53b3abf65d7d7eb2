"use server";

import { freezeCredential, unfreezeCredential } from "@/server/controls/freeze-credential";
import { revokeCredential } from "@/server/controls/revoke-credential";
import { setApprovalThreshold } from "@/server/controls/set-approval-threshold";
import { isAppError } from "@/server/errors";
import { linkWallet, setWalletCaps, walletLinkMessage } from "@/server/wallet-caps/link-wallet";
import { currentPerson } from "./person";

export type ActionResult = { ok: true } | { ok: false; message: string };

/** One control, for the signed-in person only; what it refuses is said in words, never thrown to the page. */
async function asPerson(run: (person: { humanId: string; sellerId: string }) => Promise<void>): Promise<ActionResult> {
  const person = await currentPerson();
  if (!person) return { ok: false, message: "Sign in first." };
  try {
    await run(person);
    return { ok: true };
  } catch (e) {
    if (isAppError(e)) return { ok: false, message: e.detail ?? e.message };
    throw e;
  }
}

export async function freezeAction(credentialId: string): Promise<ActionResult> {
  return asPerson((p) => freezeCredential(p, credentialId));
}

export async function unfreezeAction(credentialId: string): Promise<ActionResult> {
  return asPerson((p) => unfreezeCredential(p, credentialId));
}

export async function revokeAction(credentialId: string): Promise<ActionResult> {
  return asPerson((p) => revokeCredential(p, credentialId));
}

/** An approval threshold in USD for one credential, or (null) for all of them; empty removes it. */
export async function setThresholdAction(credentialId: string | null, usd: string): Promise<ActionResult> {
  return asPerson((p) => setApprovalThreshold(p, { credentialId, usd }));
}

/** The EIP-4361 message for the wallet at `address` to sign (a fresh nonce kept for this person). */
export async function walletMessageAction(address: string): Promise<{ ok: true; message: string } | { ok: false; message: string }> {
  const person = await currentPerson();
  if (!person) return { ok: false, message: "Sign in first." };
  try {
    return { ok: true, message: await walletLinkMessage(person, { address, origin: person.origin }) };
  } catch (e) {
    if (isAppError(e)) return { ok: false, message: e.detail ?? e.message };
    throw e;
  }
}

export async function linkWalletAction(message: string, signature: string): Promise<ActionResult> {
  return asPerson(async (p) => void (await linkWallet(p, { message, signature, origin: (await currentPerson())!.origin })));
}

export async function setWalletCapsAction(wallet: string, perCallUsd: string, perDayUsd: string): Promise<ActionResult> {
  return asPerson((p) => setWalletCaps(p, { wallet, perCallUsd, perDayUsd }));
}
