import { usd } from "../../../../_components/format";

/**
 * Of a customer's credit left, what the storefront's instances hold in short leases right now (plan-covered calls paid
 * from memory: server/payments/rails/credits/README.md, "Leased credit"). Shown only while something is held.
 */
export function CreditHeldByInstances({ heldUsd }: { heldUsd: string }) {
  if (Number(heldUsd) === 0) return null;
  return (
    <p className="mt-2 text-xs text-slate-600" data-testid="customer-credit-held">
      Of the credit left, {usd(heldUsd)} is held by the storefront&apos;s instances in leases of a few seconds: not spent yet; what a lease does not spend comes
      back when it ends.
    </p>
  );
}
