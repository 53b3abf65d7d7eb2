// Sign-in emails. Demo and tests: written to the outbox table and shown at /outbox (IDENTITY_DEV_OUTBOX=1,
// never on in production). Otherwise sent over SMTP (IDENTITY_SMTP_URL).
import { env } from "../env";
import { AppError } from "../http/errors";
import { createOutboxMessage, findOutboxMessages } from "./human-sign-in.queries";

export type Mail = { to: string; subject: string; text: string };

export function outboxEnabled(): boolean {
  return env().IDENTITY_DEV_OUTBOX;
}

export async function sendMail(mail: Mail): Promise<void> {
  const e = env();
  if (e.IDENTITY_DEV_OUTBOX) {
    await createOutboxMessage(mail);
    return;
  }
  if (!e.IDENTITY_SMTP_URL)
    throw new AppError("not_implemented", { detail: "email sign-in is not configured (set IDENTITY_SMTP_URL, or IDENTITY_DEV_OUTBOX=1 for a demo)" });
  const nodemailer = await import("nodemailer");
  await nodemailer.createTransport(e.IDENTITY_SMTP_URL).sendMail({ from: e.IDENTITY_MAIL_FROM, ...mail });
}

/** The demo outbox (empty when it is switched off, so the page shows nothing in production). */
export async function listOutbox(): Promise<{ id: string; to: string; subject: string; text: string; createdAt: Date }[]> {
  if (!outboxEnabled()) return [];
  return findOutboxMessages();
}
