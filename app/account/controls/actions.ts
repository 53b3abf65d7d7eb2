"use server";

import { freezeCredential, unfreezeCredential } from "@/server/controls/freeze-credential";
import { revokeCredential } from "@/server/controls/revoke-credential";
import { setApprovalThreshold } from "@/server/controls/set-approval-threshold";
import { isAppError } from "@/server/errors";
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
