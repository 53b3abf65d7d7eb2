// Invite someone to a seller's console by email, as an owner or a viewer: a single-use link (the token kept only as its
// SHA-256), valid for a week, emailed through the mail path; accepting it creates their account with that role.
import { createHash, randomBytes } from "node:crypto";
import { AppError } from "../errors";
import { hasControlCharacters } from "../http/invalid-text";
import { sendMail } from "../identity/send-mail";
import { hashPassword } from "./password";
import { MIN_PASSWORD_LENGTH } from "./reset-password";
import { createInvite, emailHasAccount, spendInvite } from "../team/team.queries";
import type { TeamRole } from "../team/roles";

export const INVITE_TTL_MS = 7 * 86_400_000;

const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");

export async function inviteMember(input: { sellerId: string; actorId: string; email: string; role: TeamRole; origin: string }) {
  const email = input.email.trim().toLowerCase();
  if (!/^[^\s@]{1,200}@[^\s@]{1,200}$/.test(email) || hasControlCharacters(email))
    throw new AppError("invalid_request", { reason: "invalid_parameter", detail: "give an email address", extra: { parameter: "email" } });
  if (await emailHasAccount(email))
    throw new AppError("invalid_request", { reason: "invalid_parameter", detail: "this email already has a console account", extra: { parameter: "email" } });
  const token = randomBytes(32).toString("base64url");
  const invite = await createInvite({ ...input, email, tokenHash: hashToken(token), expiresAt: new Date(Date.now() + INVITE_TTL_MS) });
  await sendMail({
    to: email,
    subject: "You are invited to a seller console",
    text:
      `You were invited to a seller console as ${input.role === "owner" ? "an owner (you can change prices, refunds and settings)" : "a viewer (you can read everything, change nothing)"}.\n\n` +
      `Open ${input.origin}/console/invite?token=${token} within 7 days to choose your password. The link works once.`,
  });
  return { id: invite.id, email: invite.email, role: invite.role as TeamRole, expiresAt: invite.expiresAt.toISOString() };
}

export type AcceptOutcome = { type: "joined"; email: string; role: TeamRole } | { type: "invalid_token" } | { type: "weak_password" };

/** Accept an invitation: once, within its lifetime; creates the account with the invitation's email and role. */
export async function acceptInvite(input: { token: string; name: string; password: string }, now: Date = new Date()): Promise<AcceptOutcome> {
  if (input.password.length < MIN_PASSWORD_LENGTH || input.password.length > 1024) return { type: "weak_password" };
  if (!/^[A-Za-z0-9_-]{20,100}$/.test(input.token)) return { type: "invalid_token" };
  const name = input.name.trim().slice(0, 100) || "Team member";
  const user = await spendInvite(hashToken(input.token), { name, passwordHash: await hashPassword(input.password) }, now);
  return user ? { type: "joined", email: user.email, role: user.role as TeamRole } : { type: "invalid_token" };
}
