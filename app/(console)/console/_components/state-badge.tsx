import { PARTIALLY_REFUNDED_TONE, STATE_VIEW, stateLabel, type PaymentStatus } from "./payment-states";

/** A payment's state as a badge in a seller's words, the protocol word and its meaning on hover (and in data-state). */
export function StateBadge({
  status,
  settling,
  expired,
  reason,
  partiallyRefunded,
}: {
  status: PaymentStatus;
  settling?: boolean;
  /** A 402 past its expiry time. */
  expired?: boolean;
  /** Why it was released or failed (a card checkout that expired unpaid reads "Expired"). */
  reason?: string | null;
  /** Paid, and given back in part (several partial card refunds may follow until it is refunded). */
  partiallyRefunded?: boolean;
}) {
  const { label, title } = stateLabel({ status, settling, expired, reason, partiallyRefunded });
  return (
    <span
      className={`rounded px-2 py-0.5 text-xs whitespace-nowrap ${partiallyRefunded ? PARTIALLY_REFUNDED_TONE : STATE_VIEW[status].tone}`}
      title={title}
      data-testid="payment-state"
      data-state={partiallyRefunded ? "partially_refunded" : status}
    >
      {label}
    </span>
  );
}
