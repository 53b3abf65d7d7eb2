"use server";

import { headers } from "next/headers";
import { isAppError } from "@/server/errors";
import { storefrontOfHeaders } from "@/server/http/route";
import { authenticateOnPage, payWithCardOnPage } from "@/server/payments/rails/card/checkout/pay-on-page";

export type ActionResult = { ok: true } | { ok: false; message: string };

async function sellerId(): Promise<string> {
  return (await storefrontOfHeaders(await headers())).catalog.seller.id;
}

function failure(e: unknown): ActionResult {
  if (isAppError(e)) return { ok: false, message: e.detail ?? e.code };
  console.error("[checkout] action failed:", e instanceof Error ? e.message : e);
  return { ok: false, message: "Something went wrong on our side. Nothing was charged; please try again." };
}

/** The card form. The number goes to the processor in this call and nowhere else (never stored, never logged). */
export async function payAction(paymentId: string, attempt: number, card: { number: string; expiry: string; cvc: string }): Promise<ActionResult> {
  try {
    const m = /^\s*(\d{1,2})\s*\/\s*(\d{2}|\d{4})\s*$/.exec(card.expiry);
    if (!m) return { ok: false, message: "Enter the expiry date as MM / YY." };
    await payWithCardOnPage({
      sellerId: await sellerId(),
      paymentId,
      attempt,
      card: { number: card.number, expMonth: Number(m[1]), expYear: Number(m[2]), cvc: card.cvc.trim() },
    });
    return { ok: true };
  } catch (e) {
    return failure(e);
  }
}

/** The 3-D Secure step. */
export async function authenticateAction(paymentId: string, approve: boolean): Promise<ActionResult> {
  try {
    await authenticateOnPage({ sellerId: await sellerId(), paymentId, approve });
    return { ok: true };
  } catch (e) {
    return failure(e);
  }
}
