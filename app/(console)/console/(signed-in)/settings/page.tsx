import { Prefetched } from "../../_components/prefetch";
import { Settings } from "./_components/settings";

// /console/settings - the storefront, transaction links per network, the ETH/USD rate gas is shown at, the team
export default function SettingsPage() {
  return (
    <Prefetched
      load={(trpc, qc) => [
        qc.prefetchQuery(trpc.settings.get.queryOptions()),
        qc.prefetchQuery(trpc.settings.cardProcessor.queryOptions()),
        qc.prefetchQuery(trpc.team.members.queryOptions()),
        qc.prefetchQuery(trpc.twoStep.status.queryOptions()),
        qc.prefetchQuery(trpc.audit.list.queryOptions({ targetType: "seller_settings" })),
      ]}
    >
      <Settings />
    </Prefetched>
  );
}
