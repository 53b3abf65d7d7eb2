import { verifyPassword } from "./password";
import { findSellerUserByEmail, touchSellerUserLogin } from "./seller-users.queries";

export type SellerPrincipal = { id: string; email: string; name: string; sellerId: string; sessionVersion: number };

/** Email + password -> the seller user, or null. Same answer (and similar time) for unknown email and bad password. */
export async function authenticateSeller(email: string, password: string): Promise<SellerPrincipal | null> {
  const user = await findSellerUserByEmail(email.trim());
  if (!user) {
    await verifyPassword(password, "scrypt$16384$8$1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA");
    return null;
  }
  if (!(await verifyPassword(password, user.passwordHash))) return null;
  await touchSellerUserLogin(user.id);
  return { id: user.id, email: user.email, name: user.name, sellerId: user.sellerId, sessionVersion: user.sessionVersion };
}
