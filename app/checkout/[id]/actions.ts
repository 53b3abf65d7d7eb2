"use server";

import { headers } from "next/headers";
import { isAppError } from "@/server/errors";
import { storefrontOfHeaders } from "@/server/http/route";
import { authenticateOnPage, payWithCardOnPage } from "@/server/payments/rails/card/checkout/pay-on-page";
import { checkCardFields, type CardField } from "@/server/payments/rails/card/checkout/validate-card";

export type ActionResult = { ok: true } | { ok: false; message: string; errors?: Partial<Record<CardField, string>> };

async function sellerId(): Promise<string> {
  return (await storefrontOfHeaders(await headers())).catalog.seller.id;
}

function failure(e: unknown): ActionResult {
  if (isAppError(e)) return { ok: false, message: e.detail ?? e.code };
  console.error("[checkout] action failed:", e instanceof Error ? e.message : e);
  return { ok: false, message: "Something went wrong on our side. Nothing was charged; please try again." };
}

/**
 * The card form. The fields are checked here as in the browser (a typo gets its own message, before any processor is
 * asked); the number then goes to the processor in this call and nowhere else (never stored, never logged).
 */
export async function payAction(
  paymentId: string,
  attempt: number,
  card: { number: string; expiry: string; cvc: string; email?: string },
): Promise<ActionResult> {
  try {
    const checked = checkCardFields(card);
    if (!checked.ok) return { ok: false, message: "Check the highlighted fields. Nothing was charged.", errors: checked.errors };
    await payWithCardOnPage({ sellerId: await sellerId(), paymentId, attempt, card: checked.card, email: checked.email });
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
