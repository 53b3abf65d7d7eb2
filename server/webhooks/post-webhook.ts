// One delivery attempt: POST the body to the endpoint and read what it answers, within one deadline over connecting,
// sending and answering (a receiver that hangs costs WEBHOOK_TIMEOUT_MS, never a worker). Redirects are not followed (a
// 3xx is a failure, as in Stripe's and Svix's senders); only the first KiB of the answer is kept and at most 64 KiB read.
// The address connected to must be public unless WEBHOOK_ALLOW_PRIVATE_URLS (webhook-url.ts). Fresh sockets: an
// attempt never reuses a connection to an address checked for another endpoint.
import http from "node:http";
import https from "node:https";
import { isIP } from "node:net";
import { isPublicAddress, publicOnlyLookup } from "../lib/public-address";

const KEEP_BYTES = 1024;
const READ_BYTES = 64 * 1024;

export type AttemptResult =
  { type: "answered"; status: number; latencyMs: number; response: string } | { type: "failed"; error: string; timeout: boolean; latencyMs: number };

export function postWebhook(
  target: string,
  opts: { headers: Record<string, string>; body: string; timeoutMs: number; allowPrivate: boolean },
): Promise<AttemptResult> {
  const t0 = performance.now();
  const elapsed = () => Math.round(performance.now() - t0);
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    return Promise.resolve({ type: "failed", error: "invalid URL", timeout: false, latencyMs: 0 });
  }
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (!opts.allowPrivate && (url.protocol !== "https:" || (isIP(host) && !isPublicAddress(host))))
    return Promise.resolve({ type: "failed", error: "the URL is not an https URL of a public address", timeout: false, latencyMs: 0 });
  const secure = url.protocol === "https:";
  return new Promise((resolve) => {
    let done = false;
    const finish = (r: AttemptResult) => {
      if (done) return;
      done = true;
      clearTimeout(deadline);
      resolve(r);
    };
    const req = (secure ? https : http).request(
      url,
      {
        method: "POST",
        agent: false,
        lookup: publicOnlyLookup(opts.allowPrivate) as unknown as typeof import("node:dns").lookup,
        headers: { ...opts.headers, "content-length": String(Buffer.byteLength(opts.body)) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        let read = 0;
        const answered = () => {
          const text = Buffer.concat(chunks).subarray(0, KEEP_BYTES).toString("utf8");
          finish({ type: "answered", status: res.statusCode ?? 0, latencyMs: elapsed(), response: text });
        };
        res.on("data", (c: Buffer) => {
          if (read < READ_BYTES) chunks.push(c);
          read += c.length;
          // Enough to judge it: the rest of a large answer is not waited for.
          if (read >= READ_BYTES) {
            answered();
            res.destroy();
          }
        });
        res.on("end", answered);
        res.on("error", answered);
      },
    );
    const deadline = setTimeout(() => {
      req.destroy();
      finish({ type: "failed", error: `no answer within ${opts.timeoutMs} ms`, timeout: true, latencyMs: elapsed() });
    }, opts.timeoutMs);
    req.on("error", (e: NodeJS.ErrnoException) =>
      finish({ type: "failed", error: e.code ? `${e.code}: ${e.message}` : e.message, timeout: false, latencyMs: elapsed() }),
    );
    req.end(opts.body);
  });
}
