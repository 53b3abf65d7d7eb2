// The webhook worker of this instance (started by instrumentation.ts, like the reconciler; on every instance: a
// delivery is claimed by one worker at a time through PostgreSQL, so adding instances adds senders, never duplicates).
// It polls for due deliveries every POLL_MS and, while it finds a full batch, again at once.
import { logger } from "../observability/logger";
import { deliverDueWebhooks } from "./deliver-webhooks";

const POLL_MS = 1_000;
const BATCH = 16;

export function startWebhookWorker(opts: { pollMs?: number; sellerId?: string } = {}): { stop: () => Promise<void> } {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  const tick = async () => {
    let full = true;
    while (full && !stopped) {
      try {
        const pass = await deliverDueWebhooks(BATCH, opts.sellerId ?? null);
        full = pass.claimed === BATCH;
      } catch (err) {
        logger().error({ err, component: "webhooks" }, "webhook pass failed");
        full = false;
      }
    }
  };
  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      running = tick().finally(schedule);
    }, opts.pollMs ?? POLL_MS);
    timer.unref();
  };
  schedule();
  return {
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
