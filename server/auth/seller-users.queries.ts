import { db } from "../db/client";

export async function findSellerUserByEmail(email: string) {
  return db.sellerUser.findUnique({
    where: { email: email.toLowerCase() },
    select: { id: true, email: true, name: true, sellerId: true, passwordHash: true, sessionVersion: true, twoStep: { select: { enabledAt: true } } },
  });
}

export async function touchSellerUserLogin(id: string) {
  await db.sellerUser.update({ where: { id }, data: { lastLoginAt: new Date() } });
}
