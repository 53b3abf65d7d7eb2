import { startAlertLoop } from "./alerts/start-alert-loop";
import { env, EnvError } from "./env";
import { describeCardProcessor } from "./payments/rails";
import { startWebhookWorker } from "./webhooks/start-webhook-worker";

/** Validate the environment once at start-up; a bad setting stops the process with its name. */
export function checkEnvironmentOrExit(): void {
  try {
    env();
  } catch (e) {
    if (e instanceof EnvError) {
      console.error(`\n${e.message}\n`);
      process.exit(1);
    }
    throw e;
  }
}

/** This instance's share of the operations work: webhook delivery and the alert checks (each can be switched off). */
export function startOperations(): void {
  const e = env();
  // One line on which card processor takes payments (or that none does: the card rail is then not offered).
  console.info(`[startup] ${describeCardProcessor()}`);
  if (e.WEBHOOK_DELIVERY) startWebhookWorker();
  if (e.ALERTS) startAlertLoop();
}
