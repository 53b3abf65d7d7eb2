const STATE_STYLE: Record<string, string> = {
  challenged: "bg-slate-100 text-slate-700",
  verified: "bg-amber-100 text-amber-900",
  settled: "bg-emerald-100 text-emerald-900",
  consumed: "bg-emerald-100 text-emerald-900",
  released: "bg-slate-100 text-slate-700",
  refunded: "bg-sky-100 text-sky-900",
  failed: "bg-red-100 text-red-900",
};

/** A payment's state as a badge; `verified (settling)` while the charge is decided but not yet recorded. */
export function StateBadge({ status, settling, title }: { status: string; settling?: boolean; title?: string }) {
  return (
    <span className={`whitespace-nowrap rounded px-2 py-0.5 text-xs ${STATE_STYLE[status] ?? ""}`} title={title} data-testid="payment-state">
      {status}
      {settling ? " (settling)" : ""}
    </span>
  );
}
