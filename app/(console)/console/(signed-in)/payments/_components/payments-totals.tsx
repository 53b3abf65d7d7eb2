"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useTRPC } from "../../../providers";
import { count, usd } from "../../../_components/format";
import { StateBadge } from "../../../_components/state-badge";
import { LINK, Loaded } from "../../../_components/section";

/** All-time revenue from the ledger, and how many payments are in each state (draws on prepaid credit counted apart). */
export function PaymentsTotals() {
  const trpc = useTRPC();
  const totals = useQuery(trpc.payments.totals.queryOptions());
  return (
    <Loaded query={totals} what="totals">
      {(t) => (
        <div className="mt-4" data-testid="payments-totals">
          <p>
            <span className="text-slate-600">Net revenue, all time</span>{" "}
            <span className="text-lg font-semibold tabular-nums" data-testid="payments-revenue" data-value={t.revenueUsd} title={`${t.revenueUsd} USD`}>
              {usd(t.revenueUsd)}
            </span>{" "}
            <span className="text-sm text-slate-600">
              from the ledger: {count(t.charges)} {t.charges === 1 ? "charge" : "charges"}
              {t.refunds > 0 ? `, ${usd(t.refundedUsd)} refunded` : ""}
            </span>
          </p>
          {!t.ledgerMatchesPayments && (
            <p role="alert" className="mt-1 text-sm text-red-700">
              The ledger and the settled payments disagree; check the settlement outbox.
            </p>
          )}
          <ul className="mt-2 flex flex-wrap gap-x-3 gap-y-1 text-xs" data-testid="payments-by-state" aria-label="Payments per state">
            {t.byStatus
              .filter((s) => s.count > 0)
              .map((s) => (
                <li key={s.status} title={usd(s.amountUsd)} data-testid={`payments-count-${s.status}`}>
                  <StateBadge status={s.status} /> <span className="tabular-nums">{count(s.count)}</span>
                </li>
              ))}
            {t.usage.draws > 0 && (
              <li>
                <Link className={LINK} href="/console/usage">
                  {count(t.usage.draws)} calls on prepaid credit
                </Link>{" "}
                (usage, {usd(t.usage.drawnUsd)} drawn)
              </li>
            )}
          </ul>
        </div>
      )}
    </Loaded>
  );
}
