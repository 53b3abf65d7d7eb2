"use server";

import { headers } from "next/headers";
import { answerApproval } from "@/server/approvals/decide-approval";
import { getApprovalView } from "@/server/approvals/view-approvals";
import { isAppError } from "@/server/errors";
import { clientAddress } from "@/server/http/client-address";
import { pageOrigin } from "@/server/http/route";
import { requestSignInCode } from "@/server/identity/human-sign-in";
import { currentPerson } from "../../controls/person";

export type AnswerResult = { ok: true } | { ok: false; message: string };

/** Approve or decline, as the signed-in person the approval is for. */
export async function answerAction(approvalId: string, approve: boolean): Promise<AnswerResult> {
  const person = await currentPerson();
  if (!person) return { ok: false, message: "Sign in first." };
  try {
    await answerApproval(person, approvalId, approve);
    return { ok: true };
  } catch (e) {
    if (isAppError(e)) return { ok: false, message: e.detail ?? e.message };
    throw e;
  }
}

/**
 * A sign-in code, only to the person a live approval was sent to, who types their address (the page never shows it to
 * whoever holds the link: the agent does), so it is never an open mail relay.
 */
export async function requestApprovalCodeAction(approvalId: string, email: string): Promise<{ ok: boolean; message: string }> {
  const view = await getApprovalView(approvalId);
  if (!view || view.state !== "pending") return { ok: false, message: "This approval is no longer waiting for an answer." };
  if (email.trim().toLowerCase() !== view.email) return { ok: false, message: "That is not the address this approval was sent to." };
  const h = await headers();
  const res = await requestSignInCode({
    email: view.email,
    origin: await pageOrigin(h),
    claimPath: `/account/approvals/${approvalId}`,
    client: clientAddress(h),
  });
  return res.type === "sent" ? { ok: true, message: `We sent a six-digit code to ${res.email}.` } : { ok: false, message: res.detail };
}
