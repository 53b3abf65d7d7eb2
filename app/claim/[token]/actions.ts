"use server";

import { headers } from "next/headers";
import { currentSession } from "@/server/auth/session";
import { isAppError } from "@/server/errors";
import { clientAddress } from "@/server/http/client-address";
import { storefrontOfHeaders } from "@/server/http/route";
import { confirmClaimAttempt, denyClaimAttempt, viewClaimAttempt, type ConfirmOutcome } from "@/server/identity/confirm-claim";
import { requestSignInCode } from "@/server/identity/human-sign-in";

/** The link in the email: from configuration (PUBLIC_URL and the storefront's own host), never a client's headers. */
async function origin(): Promise<string | null> {
  try {
    return (await storefrontOfHeaders(await headers())).origin;
  } catch (e) {
    if (isAppError(e)) return null;
    throw e;
  }
}

async function human(): Promise<{ id: string; email: string } | null> {
  const s = await currentSession();
  return s?.user.kind === "human" && s.user.id && s.user.email ? { id: s.user.id, email: s.user.email } : null;
}

/** Email a sign-in code, only for a live claim link (so this is never an open mail relay). */
export async function requestCodeAction(token: string, email: string): Promise<{ ok: boolean; message: string }> {
  const view = await viewClaimAttempt(token);
  if (!view || (view.state !== "open" && view.state !== "confirmed")) return { ok: false, message: "This claim link is no longer valid." };
  const o = await origin();
  if (!o) return { ok: false, message: "This page is not served by a storefront." };
  const res = await requestSignInCode({ email, origin: o, claimPath: `/claim/${token}`, client: clientAddress(await headers()) });
  return res.type === "sent" ? { ok: true, message: `We sent a six-digit code to ${res.email}.` } : { ok: false, message: res.detail };
}

export async function confirmAction(token: string): Promise<ConfirmOutcome> {
  const h = await human();
  if (!h) return { type: "refused", detail: "Sign in first." };
  return confirmClaimAttempt(token, h);
}

export async function denyAction(token: string): Promise<boolean> {
  const h = await human();
  return h ? denyClaimAttempt(token, h) : false;
}
