import { Webhooks } from "./_components/webhooks";

// /console/webhooks - webhook endpoints and their deliveries, alerts, credit alert thresholds
export default function WebhooksPage() {
  return <Webhooks />;
}
