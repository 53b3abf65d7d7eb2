import { STATE_VIEW, stateLabel, type PaymentStatus } from "./payment-states";

/** A payment's state as a badge in a seller's words, the protocol word and its meaning on hover (and in data-state). */
export function StateBadge({
  status,
  settling,
  expired,
  reason,
}: {
  status: PaymentStatus;
  settling?: boolean;
  /** A 402 past its expiry time. */
  expired?: boolean;
  /** Why it was released or failed (a card checkout that expired unpaid reads "Expired"). */
  reason?: string | null;
}) {
  const { label, title } = stateLabel({ status, settling, expired, reason });
  return (
    <span className={`rounded px-2 py-0.5 text-xs whitespace-nowrap ${STATE_VIEW[status].tone}`} title={title} data-testid="payment-state" data-state={status}>
      {label}
    </span>
  );
}
