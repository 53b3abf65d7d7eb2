"use server";

import { headers } from "next/headers";
import { revalidatePath } from "next/cache";
import { currentSession } from "@/server/auth/session";
import { requestAccountCode } from "@/server/budgets/request-account-code";
import { setBudget } from "@/server/budgets/set-budget";
import { isAppError } from "@/server/errors";
import { clientAddress } from "@/server/http/client-address";
import { storefrontOfHeaders } from "@/server/http/route";

async function storefront() {
  const { catalog, origin } = await storefrontOfHeaders(await headers());
  return { sellerId: catalog.seller.id, origin };
}

export async function requestAccountCodeAction(email: string): Promise<{ message: string }> {
  try {
    const s = await storefront();
    return requestAccountCode({ sellerId: s.sellerId, email, origin: s.origin, client: clientAddress(await headers()) });
  } catch (e) {
    if (isAppError(e)) return { message: "This page is not served by a storefront." };
    throw e;
  }
}

export type BudgetFormState = { ok: boolean; message: string } | null;

/** One budget form: `credential` is an agent's id, or empty for all the person's agents together. */
export async function setBudgetAction(_prev: BudgetFormState, form: FormData): Promise<BudgetFormState> {
  const session = await currentSession();
  if (session?.user.kind !== "human" || !session.user.id) return { ok: false, message: "Sign in first." };
  const text = (name: string) => String(form.get(name) ?? "");
  try {
    const { sellerId } = await storefront();
    await setBudget({
      sellerId,
      humanId: session.user.id,
      credentialId: text("credential") || null,
      perCallUsd: text("per_call_usd"),
      perDayUsd: text("per_day_usd"),
      perMonthUsd: text("per_month_usd"),
    });
  } catch (e) {
    if (isAppError(e)) return { ok: false, message: e.detail ?? e.code };
    throw e;
  }
  revalidatePath("/account");
  return { ok: true, message: "Saved. It applies to the next call." };
}
