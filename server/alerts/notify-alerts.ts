// The seller is told by email (the identity mailer: SMTP, or the demo's /outbox): one message per seller per pass,
// listing the alerts opened since the last, each with what it means and what to do. Alerts are claimed with a lease, so
// two instances never send the same one; a failed send leaves them unsent, and the next pass tries again.
import { storefrontOrigin } from "../events/event-origin";
import { sendMail } from "../identity/send-mail";
import { logger } from "../observability/logger";
import { claimUnsentAlerts, findSellerEmails, markAlertsSent, type UnsentAlert } from "./alerts.queries";

const LEASE_SECONDS = 120;

type Details = Record<string, unknown>;

/** One alert as a paragraph of the email. */
export function describeAlert(a: Pick<UnsentAlert, "kind" | "subject" | "details">): string {
  const d = (a.details ?? {}) as Details;
  switch (a.kind) {
    case "settlement_delayed":
      return `Settlement delayed: payment ${a.subject} was served and its charge is still pending since ${d.pending_since} (over ${d.threshold_seconds} s). The reconciler keeps retrying it; check the chain RPC or facilitator (GET /readyz, storefront_settlement_outbox_oldest_age_seconds).`;
    case "refund_failed":
      return `Payment needs you: the card refund of payment ${a.subject} failed${d.detail ? ` (${d.detail})` : ""}. The customer has not been paid back: refund them from the card processor's dashboard.`;
    case "upstream_failing": {
      const op = a.subject.slice(a.subject.indexOf(":") + 1);
      return `Upstream failing: ${d.failures} of ${d.calls} paid calls of ${op} failed upstream in the last ${d.window_seconds} s (${JSON.stringify(d.reasons)}). Callers were not charged for them; check the service behind ${op}.`;
    }
    case "webhook_endpoint_disabled":
      return `Webhook endpoint disabled: ${d.url} failed every delivery (${d.reason}). Its pending deliveries were marked failed. Fix the endpoint, enable it again in the console and resend what it missed.`;
    default:
      return `${a.kind}: ${a.subject}`;
  }
}

export async function notifyAlerts(): Promise<number> {
  const claimed = await claimUnsentAlerts(LEASE_SECONDS, 100);
  const bySeller = new Map<string, UnsentAlert[]>();
  for (const a of claimed) bySeller.set(a.sellerId, [...(bySeller.get(a.sellerId) ?? []), a]);
  let sent = 0;
  for (const [sellerId, alerts] of bySeller) {
    // Resolved before anyone was told (a settlement that went through a minute later): nothing to say.
    const open = alerts.filter((a) => a.status === "open");
    const recipients = open.length ? await findSellerEmails(sellerId) : [];
    if (!open.length || !recipients.length) {
      await markAlertsSent(alerts.map((a) => a.id));
      continue;
    }
    const link = `${await storefrontOrigin(sellerId)}/console/webhooks`;
    const subject = `[${recipients[0]!.sellerName}] ${open.length === 1 ? describeAlert(open[0]!).split(":")[0] : `${open.length} alerts`}`;
    const text = [
      `${open.length} alert${open.length === 1 ? "" : "s"} at ${recipients[0]!.sellerName}:`,
      "",
      ...open.map((a) => `- ${describeAlert(a)}`),
      "",
      `Alerts, webhook endpoints and deliveries: ${link}`,
    ].join("\n");
    let ok = true;
    for (const r of recipients) {
      const res = await sendMail({ to: r.email, subject, text });
      if (res.type !== "sent") {
        ok = false;
        logger().warn({ seller: sellerId, reason: res.reason }, "alert email not sent; retried on the next pass");
      }
    }
    if (ok) {
      await markAlertsSent(alerts.map((a) => a.id));
      sent += open.length;
    }
  }
  return sent;
}
