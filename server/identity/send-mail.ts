// Sign-in emails. Demo and tests: written to the outbox table and shown at /outbox (IDENTITY_DEV_OUTBOX=1,
// never on in production). Otherwise sent over SMTP (IDENTITY_SMTP_URL).
import { env } from "../env";
import { createOutboxMessage, findOutboxMessages } from "./human-sign-in.queries";

export type Mail = { to: string; subject: string; text: string };

export function outboxEnabled(): boolean {
  return env().IDENTITY_DEV_OUTBOX;
}

export type MailResult = { type: "sent" } | { type: "failed"; reason: "not_configured" | "delivery_failed"; detail: string };

/** SMTP waits: a mail server that hangs must not hold the human's page for minutes. */
const SMTP_TIMEOUT_MS = 10_000;

/**
 * Send one message. A mail server that refuses or cannot be reached is an outcome, not an exception: the
 * human is told to try again, and the server log says why.
 */
export async function sendMail(mail: Mail): Promise<MailResult> {
  const e = env();
  if (e.IDENTITY_DEV_OUTBOX) {
    await createOutboxMessage(mail);
    return { type: "sent" };
  }
  if (!e.IDENTITY_SMTP_URL) {
    console.error("[mail] email sign-in is not configured: set IDENTITY_SMTP_URL (or IDENTITY_DEV_OUTBOX=1 for a demo)");
    return { type: "failed", reason: "not_configured", detail: "IDENTITY_SMTP_URL is not set" };
  }
  const nodemailer = await import("nodemailer");
  try {
    const transport = nodemailer.createTransport(e.IDENTITY_SMTP_URL, {
      connectionTimeout: SMTP_TIMEOUT_MS,
      greetingTimeout: SMTP_TIMEOUT_MS,
      socketTimeout: SMTP_TIMEOUT_MS,
    });
    await transport.sendMail({ from: e.IDENTITY_MAIL_FROM, ...mail });
    return { type: "sent" };
  } catch (err) {
    // The URL may carry credentials: log the mail server's answer, never the configuration.
    const detail = err instanceof Error ? err.message.split("\n")[0]! : String(err);
    console.error(`[mail] sending to ${mail.to} failed: ${detail}`);
    return { type: "failed", reason: "delivery_failed", detail };
  }
}

/** The demo outbox (empty when it is switched off, so the page shows nothing in production). */
export async function listOutbox(): Promise<{ id: string; to: string; subject: string; text: string; createdAt: Date }[]> {
  if (!outboxEnabled()) return [];
  return findOutboxMessages();
}
