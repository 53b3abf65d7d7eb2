"use client";

import { useSearchState } from "../../../_components/use-search-state";
import { PageHeader } from "../../../_components/section";
import { RecentChanges } from "../../../_components/recent-changes";
import { Alerts } from "./alerts";
import { CreditThresholds } from "./credit-thresholds";
import { Deliveries } from "./deliveries";
import { Endpoints } from "./endpoints";

export function Webhooks() {
  const { get, set } = useSearchState();
  const selected = get("endpoint");
  return (
    <>
      <PageHeader title="Webhooks and alerts">
        Events (payments settled, released, refunded or failed, plan purchases, credit running low, claims, price and plan changes, alerts) are sent to your
        endpoints as they happen, signed per Standard Webhooks (webhook-id, webhook-timestamp, webhook-signature), at least once, retried for about three days.
        An endpoint that fails every attempt for days is disabled and you are emailed.
      </PageHeader>
      <Endpoints selected={selected} onSelect={(id) => set({ endpoint: id, status: null })} />
      {selected && <Deliveries endpointId={selected} />}
      <Alerts />
      <CreditThresholds />
      <RecentChanges targetType="webhook_endpoint" />
    </>
  );
}
