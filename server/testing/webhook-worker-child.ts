// Child process for the two-instance webhook test: one app instance's webhook worker, polling PostgreSQL every 20 ms
// until it is told to stop (SIGTERM), then letting its in-flight attempts finish.
import { startWebhookWorker } from "../webhooks/start-webhook-worker";

const worker = startWebhookWorker({ pollMs: 20 });
process.on("SIGTERM", () => {
  void worker.stop().then(() => process.exit(0));
});
console.log("worker started");
setInterval(() => {}, 1 << 30);
