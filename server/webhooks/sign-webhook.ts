// Standard Webhooks headers (https://www.standardwebhooks.com, the `standardwebhooks` package): webhook-id (the event
// id, the same on every retry, so receivers can drop duplicates), webhook-timestamp (this attempt, Unix seconds: a
// receiver refuses stale ones) and webhook-signature (`v1,<base64 HMAC-SHA256 of id.timestamp.body>`). After a rotation
// the body is signed with the new and the previous secret, space-separated, until the previous one expires.
import { Webhook } from "standardwebhooks";

export const USER_AGENT = "Storefront-Webhooks/1.0 (+https://www.standardwebhooks.com)";

export function webhookHeaders(msgId: string, at: Date, body: string, secrets: string[]): Record<string, string> {
  return {
    "content-type": "application/json",
    "user-agent": USER_AGENT,
    "webhook-id": msgId,
    "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
    "webhook-signature": secrets.map((s) => new Webhook(s).sign(msgId, at, body)).join(" "),
  };
}
