"use server";

import { headers } from "next/headers";
import { requestPasswordReset, resetPassword } from "@/server/auth/reset-password";
import { isAppError } from "@/server/errors";
import { clientAddress } from "@/server/http/client-address";
import { pageOrigin } from "@/server/http/route";

export type ResetActionResult = { ok: boolean; message: string };

/** Ask for a reset link: the same answer whether or not an account uses the address. */
export async function requestResetAction(email: string): Promise<ResetActionResult> {
  const h = await headers();
  let origin: string;
  try {
    origin = await pageOrigin(h);
  } catch (e) {
    if (isAppError(e)) return { ok: false, message: "This page's address is not one this server answers on." };
    throw e;
  }
  const r = await requestPasswordReset({ email: String(email ?? ""), origin, client: clientAddress(h) });
  if (r.type === "invalid") return { ok: false, message: "That is not an email address." };
  if (r.type === "locked") return { ok: false, message: `Too many requests for this address or from this network. Try again in ${r.retryAfter} seconds.` };
  return { ok: true, message: "If an account uses this address, we sent it a link to reset the password. It works once, within 30 minutes." };
}

/** Set the new password with the emailed token. */
export async function resetPasswordAction(token: string, password: string): Promise<ResetActionResult> {
  const r = await resetPassword({ token: String(token ?? ""), password: String(password ?? "") });
  if (r.type === "weak_password") return { ok: false, message: "Choose a password of at least 12 characters." };
  if (r.type === "invalid_token") return { ok: false, message: "This link is no longer valid (used, expired or mistyped). Ask for a new one." };
  return { ok: true, message: "Your password is changed, and every session of your account has ended. Sign in with the new password." };
}
