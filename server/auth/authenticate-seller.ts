import { SecondFactorRequired } from "./limited-sign-in";
import { verifyPassword } from "./password";
import { findSellerUserByEmail, touchSellerUserLogin } from "./seller-users.queries";
import { checkSecondFactor } from "./two-step";

export type SellerPrincipal = { id: string; email: string; name: string; sellerId: string; sessionVersion: number };

/**
 * Email + password -> the seller user, or null. Same answer (and similar time) for unknown email and bad password. An
 * account with two-step authentication on is never signed in by its password alone: `SecondFactorRequired`.
 */
export async function authenticateSeller(email: string, password: string): Promise<SellerPrincipal | null> {
  return signInSeller(email, password, null);
}

/**
 * The console's sign-in: email + password, and for an account with two-step authentication on a current code (or a
 * recovery code), spent once. Without one the right password gets no session: `SecondFactorRequired` asks for it.
 */
export async function signInSeller(email: string, password: string, code: string | null): Promise<SellerPrincipal | null> {
  const user = await checkSellerPassword(email, password);
  if (!user) return null;
  if (user.twoStep?.enabledAt) {
    if (!code) throw new SecondFactorRequired();
    if (!(await checkSecondFactor(user.id, code))) return null;
  }
  await touchSellerUserLogin(user.id);
  return principal(user);
}

type SellerUserRow = NonNullable<Awaited<ReturnType<typeof findSellerUserByEmail>>>;

async function checkSellerPassword(email: string, password: string): Promise<SellerUserRow | null> {
  const user = await findSellerUserByEmail(email.trim());
  if (!user) {
    await verifyPassword(password, "scrypt$16384$8$1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA");
    return null;
  }
  return (await verifyPassword(password, user.passwordHash)) ? user : null;
}

function principal(user: SellerUserRow): SellerPrincipal {
  return { id: user.id, email: user.email, name: user.name, sellerId: user.sellerId, sessionVersion: user.sessionVersion };
}
