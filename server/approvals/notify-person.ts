// The person hears of a held call by email, through the storefront's one mail path (the claim's sign-in codes use it:
// SMTP, or the demo outbox). Sent off the agent's answer: a slow mail server never holds the call, and a failure is
// logged by sendMail (the approval still stands; the page lists it).
import { sendMail } from "../identity/send-mail";
import { microsToUsd } from "../lib/money";

type Held = { id: string; credentialId: string; amountMicros: bigint; method: string; path: string; query: string; expiresAt: Date };

export function notifyPerson(input: { to: string; approval: Held; url: string }): void {
  const a = input.approval;
  const target = `${a.method} ${a.path}${a.query ? `?${a.query}` : ""}`;
  void sendMail({
    to: input.to,
    subject: `Approve a $${microsToUsd(a.amountMicros)} call by your agent?`,
    text:
      `Your agent ${a.credentialId} asks to pay $${microsToUsd(a.amountMicros)} for ${target}, over the approval threshold you set.\n\n` +
      `Approve or decline it: ${input.url}\n\nIf nobody answers by ${a.expiresAt.toISOString()} it is declined. Nothing is charged unless you approve.`,
  }).catch((e: unknown) => console.error("[approvals] the approval email could not be sent:", e instanceof Error ? e.message : e));
}
