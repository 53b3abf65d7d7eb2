import { PARTIALLY_REFUNDED, stateLabel, stateWordsOf, type PaymentStatus } from "@/server/contracts/payment-words";

// Each state's colours; its words are the shared table's (server/contracts/payment-words.ts).
const TONE: Record<PaymentStatus | typeof PARTIALLY_REFUNDED, string> = {
  challenged: "bg-slate-100 text-slate-800",
  incomplete: "bg-amber-100 text-amber-900",
  verified: "bg-amber-100 text-amber-900",
  settled: "bg-emerald-100 text-emerald-900",
  consumed: "bg-emerald-100 text-emerald-900",
  released: "bg-slate-100 text-slate-800",
  refunded: "bg-sky-100 text-sky-900",
  failed: "bg-red-100 text-red-900",
  partially_refunded: "bg-sky-100 text-sky-900",
};

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
  const state = partiallyRefunded ? PARTIALLY_REFUNDED : status;
  return (
    <span className={`rounded px-2 py-0.5 text-xs whitespace-nowrap ${TONE[state]}`} title={title} data-testid="payment-state" data-state={state}>
      {label}
    </span>
  );
}

/** A state word stored as text (a search hit's status, an audit row's before and after) in words; other text as it is. */
export function StateText({ value }: { value: string }) {
  const words = stateWordsOf(value);
  if (!words) return <>{value}</>;
  return (
    <span title={words.title} data-state={value}>
      {words.label}
    </span>
  );
}
