// The console's change of the payout wallet (server/settings/set-payout-address.ts) with what only this floor knows:
// the member proves who they are again (a session left open must not redirect the storefront's money: their password,
// and a current code when two-step authentication is on, under the account's sign-in limit, as two-step.ts asks to
// turn it on), and every owner of the storefront is told by email, old and new address, who and when, so a change
// nobody on the team made is seen the same day.
import { AppError } from "../errors";
import { sendMail } from "../identity/send-mail";
import { setPayoutAddress, type PayoutChange } from "../settings/set-payout-address";
import { findTeam } from "../team/team.queries";
import { verifyPassword } from "./password";
import { checkSecondFactor, limitedForAccount, type Refused } from "./two-step";
import { findTwoStep } from "./two-step.queries";

type Confirmed = { type: "confirmed" } | { type: "code_required" };

/** The member's password, and their second factor's code when it is on (spent once, as at sign-in). */
async function confirmMember(userId: string, password: string, code: string | undefined): Promise<void> {
  const r = await limitedForAccount<Confirmed | Refused>(userId, async (user) => {
    if (!(await verifyPassword(password, user.passwordHash))) return { type: "wrong_password" };
    if (!(await findTwoStep(user.id))?.enabledAt) return { type: "confirmed" };
    if (!code?.trim()) return { type: "code_required" };
    return (await checkSecondFactor(user.id, code)) ? { type: "confirmed" } : { type: "wrong_code" };
  });
  if (r.type !== "confirmed") throw refusal(r);
}

function refusal(r: Exclude<Confirmed | Refused, { type: "confirmed" }>): AppError {
  const invalid = (parameter: string, detail: string) => new AppError("invalid_request", { reason: "invalid_parameter", detail, extra: { parameter } });
  switch (r.type) {
    case "wrong_password":
      return invalid("password", "that is not this account's password");
    case "code_required":
      return invalid("code", "two-step authentication is on for this account: give a current code from your authenticator app");
    case "wrong_code":
      return invalid("code", "that code is not a current one (or it was used already)");
    case "locked":
      return new AppError("too_many_attempts", { detail: `too many wrong codes or passwords for this account; try again in ${r.retryAfter} seconds` });
    case "not_found":
      return new AppError("not_found", { detail: "no such account" });
  }
}

export async function changePayoutAddress(input: {
  sellerId: string;
  userId: string;
  address: string;
  password: string;
  code?: string;
}): Promise<PayoutChange & { notified: number }> {
  const change = await setPayoutAddress({
    sellerId: input.sellerId,
    actorId: input.userId,
    address: input.address,
    confirm: () => confirmMember(input.userId, input.password, input.code),
  });
  const { members } = await findTeam(input.sellerId);
  const actor = members.find((m) => m.id === input.userId);
  const who = actor ? `${actor.name} <${actor.email}>` : "a member of your team";
  const text =
    `The payout wallet of your storefront was changed by ${who} at ${change.changedAt.toISOString()} (UTC).\n\n` +
    `Old address: ${change.previous ?? "none"}\nNew address: ${change.payTo}\n\n` +
    "New payments are paid to the new address. Payments already received stay in the old wallet; unpaid offers to it are refused and offered again.\n" +
    "If nobody on your team made this change, sign in, change the address back, change your password and turn on two-step authentication.";
  // The change is made whatever the mail server says: a refused mail is logged by sendMail, and the count tells the console.
  const sent = await Promise.all(
    members.filter((m) => m.role === "owner").map((m) => sendMail({ to: m.email, subject: "Your payout wallet was changed", text })),
  );
  return { ...change, notified: sent.filter((s) => s.type === "sent").length };
}
