import { Prefetched } from "../../_components/prefetch";
import { IdentityProviders } from "./_components/identity-providers";

// /console/identity - the ID-JAG providers the storefront trusts, and its hosts
export default function IdentityPage() {
  return (
    <Prefetched
      load={(trpc, qc) => [
        qc.prefetchQuery(trpc.identity.providers.queryOptions()),
        qc.prefetchQuery(trpc.audit.list.queryOptions({ targetType: "trusted_identity_provider" })),
      ]}
    >
      <IdentityProviders />
    </Prefetched>
  );
}
