// Child process for the two-instance webhook test: one app instance's webhook worker, polling PostgreSQL every 20 ms
// until it is told to stop (SIGTERM), then letting its in-flight attempts finish. One pass is made before it says it
// started, so its modules and database connections are ready when the test starts making events.
import { deliverDueWebhooks } from "../webhooks/deliver-webhooks";
import { startWebhookWorker } from "../webhooks/start-webhook-worker";

// Only the test's seller: other test files share the database and send their own sellers' deliveries.
const sellerId = process.env.WORKER_SELLER_ID!;
await deliverDueWebhooks(1, sellerId);
const worker = startWebhookWorker({ pollMs: 20, sellerId });
process.on("SIGTERM", () => {
  void worker.stop().then(() => process.exit(0));
});
console.log("worker started");
setInterval(() => {}, 1 << 30);
