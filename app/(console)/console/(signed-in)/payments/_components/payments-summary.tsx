"use client";

import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "../../../providers";
import { count, usd } from "../../../_components/format";
import { summaryInput, type paymentFilterFrom } from "./payment-filter-input";

/** Totals of the filtered set the table pages through (every matching row, not only those loaded). */
export function PaymentsSummary({ filter, what = "payments" }: { filter: ReturnType<typeof paymentFilterFrom>; what?: string }) {
  const trpc = useTRPC();
  const q = useQuery(trpc.payments.summary.queryOptions(summaryInput(filter)));
  if (!q.data) return <p className="text-sm text-slate-600">&nbsp;</p>;
  const s = q.data;
  return (
    <p className="text-sm text-slate-700" data-testid="payments-summary" data-count={s.count}>
      <span className="font-medium tabular-nums">{count(s.count)}</span> {what} match, for <span className="tabular-nums">{usd(s.amountUsd)}</span>
      {what === "payments" && (
        <>
          : <span className="tabular-nums">{usd(s.paid.amountUsd)}</span> succeeded ({count(s.paid.count)}),{" "}
          <span className="tabular-nums">{usd(s.refunded.amountUsd)}</span> refunded ({count(s.refunded.count)})
        </>
      )}
      .
    </p>
  );
}
