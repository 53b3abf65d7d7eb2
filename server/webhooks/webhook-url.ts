// Where a webhook may be sent. A seller types the URL, and our servers then POST to it from inside the deployment's
// network: an address on a private, loopback, link-local (cloud metadata at 169.254.169.254) or otherwise reserved range
// would let that seller reach what only we can reach. So URLs must be https and resolve only to public addresses,
// checked when the endpoint is saved and again, against the address actually connected to, on every attempt (a name can
// be re-pointed after it was saved), by the guard JWKS fetches share (server/lib/public-address.ts).
// WEBHOOK_ALLOW_PRIVATE_URLS (the demo and tests) lifts both rules.
import { isIP } from "node:net";
import { AppError } from "../errors";
import { isPublicAddress, publicOnlyLookup } from "../lib/public-address";

export { isPublicAddress, publicOnlyLookup };

function refuse(detail: string): AppError {
  return new AppError("invalid_request", { reason: "invalid_webhook_url", detail, extra: { parameter: "url" } });
}

/** The URL a seller typed, checked (AppError invalid_request otherwise); `allowPrivate`: http and any address. */
export function checkWebhookUrl(input: string, allowPrivate: boolean): string {
  let url: URL;
  try {
    url = new URL(input.trim());
  } catch {
    throw refuse("not a URL");
  }
  if (input.length > 2048) throw refuse("at most 2048 characters");
  if (url.protocol !== "https:" && !(allowPrivate && url.protocol === "http:")) throw refuse("must be an https:// URL");
  if (url.username || url.password) throw refuse("must not carry a user name or password (use the signature to authenticate us)");
  if (url.hash) throw refuse("must not have a #fragment");
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (!allowPrivate) {
    // An IP literal is judged as an address (a public IPv6 literal is fine); a name by what it looks like here, and by
    // the address it resolves to on every attempt (post-webhook.ts).
    if (isIP(host)) {
      if (!isPublicAddress(host)) throw refuse("must not point at a private, loopback or reserved address");
    } else if (host === "localhost" || host.endsWith(".localhost") || host.endsWith(".internal") || host.endsWith(".local") || !host.includes("."))
      throw refuse("must be a public host name");
  }
  return url.toString();
}
