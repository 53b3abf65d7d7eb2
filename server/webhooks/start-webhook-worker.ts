// The webhook worker of this instance (started by instrumentation.ts, like the reconciler; on every instance: a
// delivery is claimed by one worker at a time through PostgreSQL, so adding instances adds senders, never duplicates).
// It polls for due deliveries every POLL_MS and, while it finds a full batch, again at once.
import { startBackgroundLoop, type BackgroundLoop } from "../lib/background-loop";
import { logger } from "../observability/logger";
import { deliverDueWebhooks } from "./deliver-webhooks";

const POLL_MS = 1_000;
const BATCH = 16;

export function startWebhookWorker(opts: { pollMs?: number; sellerId?: string } = {}): BackgroundLoop {
  const tick = async (stopped: () => boolean) => {
    let full = true;
    while (full && !stopped()) {
      try {
        const pass = await deliverDueWebhooks(BATCH, opts.sellerId ?? null);
        full = pass.claimed === BATCH;
      } catch (err) {
        logger().error({ err, component: "webhooks" }, "webhook pass failed");
        full = false;
      }
    }
  };
  const pollMs = opts.pollMs ?? POLL_MS;
  return startBackgroundLoop(tick, { firstMs: pollMs, nextMs: () => pollMs });
}
