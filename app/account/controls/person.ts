import "server-only";
import { headers } from "next/headers";
import { currentSession } from "@/server/auth/session";
import { isAppError } from "@/server/errors";
import { storefrontOfHeaders } from "@/server/http/route";

export type SignedInPerson = { humanId: string; email: string; sellerId: string; sellerName: string; origin: string };

/** The person signed in on this storefront's pages (a human session, as the claim page makes), or null. */
export async function currentPerson(): Promise<SignedInPerson | null> {
  const s = await currentSession();
  if (s?.user.kind !== "human" || !s.user.id || !s.user.email) return null;
  try {
    const { catalog, origin } = await storefrontOfHeaders(await headers());
    return { humanId: s.user.id, email: s.user.email, sellerId: catalog.seller.id, sellerName: catalog.seller.name, origin };
  } catch (e) {
    if (isAppError(e)) return null;
    throw e;
  }
}
