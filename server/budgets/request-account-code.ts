// Signing in to the account page: the claim's email code (server/identity/human-sign-in.ts), sent only to a person who
// claimed an agent at this storefront, so the page is no open mail relay. Everyone is told the same thing, so the page
// does not say who has an account.
import { normalizeEmail } from "../identity/email";
import { requestSignInCode } from "../identity/human-sign-in";
import { hasAccountHere } from "./account.queries";

export async function requestAccountCode(input: { sellerId: string; email: string; origin: string; client: string | null }): Promise<{ message: string }> {
  const email = normalizeEmail(input.email);
  if (!email) return { message: "That is not an email address." };
  const told = { message: `If ${email} claimed an agent here, we sent it a six-digit code.` };
  if (!(await hasAccountHere(input.sellerId, email))) return told;
  const res = await requestSignInCode({ email, origin: input.origin, claimPath: "/account", client: input.client });
  return res.type === "sent" ? told : { message: res.detail };
}
