// The alert loop of this instance (started by instrumentation.ts): every ALERT_CHECK_INTERVAL_SECONDS, the instance that
// holds the `alerts` lease runs the checks and retention (one at a time across the deployment, taken over by another
// instance when the holder stops renewing it); every instance sends unsent alert emails (each claimed with a lease).
import { env } from "../env";
import { startBackgroundLoop, type BackgroundLoop } from "../lib/background-loop";
import { deleteEventsBefore } from "../events/events.queries";
import { INSTANCE, logger } from "../observability/logger";
import { claimLease, deleteResolvedAlertsBefore } from "./alerts.queries";
import { checkAlerts } from "./check-alerts";
import { notifyAlerts } from "./notify-alerts";

export async function alertPass(): Promise<void> {
  const e = env();
  const intervalMs = e.ALERT_CHECK_INTERVAL_SECONDS * 1000;
  if (await claimLease("alerts", INSTANCE, intervalMs * 3)) {
    const r = await checkAlerts();
    if (Object.values(r.opened).some(Boolean) || r.resolved) logger().info({ component: "alerts", ...r }, "alerts checked");
    const before = new Date(Date.now() - e.EVENT_RETENTION_DAYS * 86_400_000);
    const pruned = await deleteEventsBefore(before, 5_000);
    await deleteResolvedAlertsBefore(before);
    if (pruned) logger().info({ component: "alerts", events_deleted: pruned }, "old events deleted");
  }
  await notifyAlerts();
}

export function startAlertLoop(): BackgroundLoop {
  const pass = () => alertPass().catch((err: unknown) => logger().error({ err, component: "alerts" }, "alert pass failed"));
  return startBackgroundLoop(pass, { firstMs: 5_000, nextMs: () => env().ALERT_CHECK_INTERVAL_SECONDS * 1000 });
}
