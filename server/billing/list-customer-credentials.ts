// The Customers page's agent credentials with their money: each credential (kind, state, the human who claimed it)
// with its live prepaid credit and plans, what it paid with its bearer (plan purchases, net of refunds: a pay-as-you-go
// call is bound to no credential), what it drew on credit, its served calls and the last one. Credentials one human claimed share their
// plans (entitlements say so); the balance here is the credit bought by this credential.
import { listAgentCredentials } from "../identity/list-agent-credentials";
import { microsToUsd } from "../lib/money";
import { findCredentialBilling } from "./customers.queries";

export async function listCustomerCredentials(sellerId: string, q: { cursor?: string | null } = {}) {
  const page = await listAgentCredentials(sellerId, q);
  const billing = await findCredentialBilling(
    sellerId,
    page.credentials.map((c) => c.id),
  );
  return {
    ...page,
    credentials: page.credentials.map((c) => {
      const b = billing.find((x) => x.credentialId === c.id);
      return {
        ...c,
        plans: b?.plans ?? [],
        balanceUsd: microsToUsd(b?.balanceMicros ?? 0n),
        spentUsd: microsToUsd(b?.spentMicros ?? 0n),
        drawnUsd: microsToUsd(b?.drawnMicros ?? 0n),
        calls: b?.calls ?? 0,
        lastCallAt: b?.lastCallAt?.toISOString() ?? null,
      };
    }),
  };
}
