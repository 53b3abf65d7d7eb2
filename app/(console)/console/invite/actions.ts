"use server";

import { acceptInvite } from "@/server/auth/invite-member";
import { MIN_PASSWORD_LENGTH } from "@/server/auth/reset-password";

export type AcceptActionResult = { ok: boolean; message: string };

/** Accept the invitation with the emailed token: the account is created once, with the invitation's email and role. */
export async function acceptInviteAction(token: string, name: string, password: string): Promise<AcceptActionResult> {
  const r = await acceptInvite({ token: String(token ?? ""), name: String(name ?? ""), password: String(password ?? "") });
  if (r.type === "weak_password") return { ok: false, message: `Choose a password of at least ${MIN_PASSWORD_LENGTH} characters.` };
  if (r.type === "invalid_token") return { ok: false, message: "This invitation is no longer valid (used, expired or mistyped). Ask an owner for a new one." };
  return { ok: true, message: `Welcome. Your account ${r.email} is ready, as ${r.role === "owner" ? "an owner" : "a viewer"}. Sign in with it.` };
}
