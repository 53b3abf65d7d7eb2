// Session versions: a session (a next-auth JWT) records its person's version when it is made; sign-out and a password
// reset bump it, so every session made before is over, on every instance, at its next request.
import { db } from "../db/client";

/** Whose session: a seller's or a person's (options.ts signs both in). */
export type SessionKind = "seller" | "human";

/** The person's current session version, or null when the person is gone. */
export async function findSessionVersion(kind: SessionKind, id: string): Promise<number | null> {
  const row =
    kind === "seller"
      ? await db.sellerUser.findUnique({ where: { id }, select: { sessionVersion: true } })
      : await db.human.findUnique({ where: { id }, select: { sessionVersion: true } });
  return row?.sessionVersion ?? null;
}

/** End every session of this person (sign-out, a password reset). */
export async function bumpSessionVersion(kind: SessionKind, id: string): Promise<void> {
  if (kind === "seller") await db.sellerUser.updateMany({ where: { id }, data: { sessionVersion: { increment: 1 } } });
  else await db.human.updateMany({ where: { id }, data: { sessionVersion: { increment: 1 } } });
}
