"use client";

import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { Fragment, useState } from "react";
import { useTRPC } from "../../../providers";
import { short, utcCell } from "../../../_components/format";
import { StateBadge } from "../../../_components/state-badge";
import { BUTTON_SECONDARY, Empty, Loaded, PageHeader, Section, TABLE_CLASS, TableScroll, ShowOlder } from "../../../_components/section";
import { useSearchState } from "../../../_components/use-search-state";
import { PaymentFilters, usePaymentFilter } from "./payment-filters";
import { cardLabel } from "./card-label";
import { Refund } from "./refund";

function Totals() {
  const trpc = useTRPC();
  const totals = useQuery(trpc.payments.totals.queryOptions());
  return (
    <Loaded query={totals} what="totals">
      {(t) => (
        <div className="mt-4" data-testid="payments-totals">
          <p>
            <span className="text-slate-500">Revenue settled, all time</span>{" "}
            <span className="font-mono text-lg font-semibold" data-testid="payments-revenue">
              ${t.revenueUsd}
            </span>{" "}
            <span className="text-sm text-slate-500">
              from the ledger: {t.charges} {t.charges === 1 ? "charge" : "charges"}
              {t.refundedUsd !== "0.000000" ? `, $${t.refundedUsd} refunded` : ""}
            </span>
          </p>
          {!t.ledgerMatchesPayments && (
            <p role="alert" className="mt-1 text-sm text-red-700">
              The ledger and the settled payments disagree; check the settlement outbox.
            </p>
          )}
          <ul className="mt-2 flex flex-wrap gap-2 text-xs" data-testid="payments-by-state" aria-label="Payments per state">
            {t.byStatus.map((s) => (
              <li key={s.status} title={`$${s.amountUsd}`} data-testid={`payments-count-${s.status}`}>
                <StateBadge status={s.status} /> <span className="font-mono">{s.count}</span>
              </li>
            ))}
          </ul>
        </div>
      )}
    </Loaded>
  );
}

export function PaymentsPage() {
  const trpc = useTRPC();
  const { params } = useSearchState();
  const filter = usePaymentFilter();
  const [refunding, setRefunding] = useState<string | null>(null);
  const list = useInfiniteQuery(trpc.payments.list.infiniteQueryOptions(filter, { getNextPageParam: (last) => last.nextCursor }));
  const rows = list.data?.pages.flatMap((p) => p.payments) ?? [];
  const exportHref = `/console/payments/export${params.toString() ? `?${params.toString()}` : ""}`;
  return (
    <>
      <PageHeader
        title="Payments"
        actions={
          <a href={exportHref} className={BUTTON_SECONDARY} data-testid="payments-export" download>
            Export CSV
          </a>
        }
      >
        Every payment of the storefront, newest first, on every rail. Filters stay in the address, so a view can be bookmarked or shared; the CSV export takes
        the same filters and holds every matching payment.
      </PageHeader>
      <Totals />
      <PaymentFilters />
      <Section title="Results" testId="section-payments">
        <Loaded query={list} what="payments">
          {() =>
            rows.length === 0 ? (
              <Empty testId="payments-empty">No payments match. Unpaid 402 challenges are hidden unless you ask for them; payments appear as agents pay.</Empty>
            ) : (
              <>
                <TableScroll>
                  <table className={TABLE_CLASS} data-testid="payments-table">
                    <thead className="text-slate-500">
                      <tr>
                        <th className="py-1 text-right whitespace-nowrap">Amount (USD)</th>
                        <th>State</th>
                        <th>Operation</th>
                        <th className="whitespace-nowrap">Time (UTC)</th>
                        <th>Payment</th>
                        <th>Rail</th>
                        <th>Payer</th>
                        <th className="whitespace-nowrap">Settlement tx</th>
                        <th>
                          <span className="sr-only">Refund</span>
                        </th>
                      </tr>
                    </thead>
                    <tbody>
                      {rows.map((p) => (
                        <Fragment key={p.id}>
                          <tr className="border-t border-slate-100" data-testid={`payment-row-${p.id}`} data-payment-id={p.id}>
                            <td className="py-2 text-right font-mono" data-testid="payment-amount">
                              {p.amountUsd}
                            </td>
                            <td>
                              <StateBadge status={p.status} settling={p.settling} title={p.failureReason ?? undefined} />
                            </td>
                            <td title={`${p.method} ${p.path}${p.query ? `?${p.query}` : ""}`}>
                              <span className="font-mono text-xs" data-testid="payment-operation">
                                {p.operation}
                              </span>
                            </td>
                            <td className="font-mono text-xs whitespace-nowrap" data-testid="payment-created">
                              {utcCell(p.createdAt)}
                            </td>
                            <td className="font-mono text-xs whitespace-nowrap">
                              <Link href={`/console/payments/${p.id}`} className="text-indigo-700 hover:underline" title={p.id} data-testid="payment-link">
                                {short(p.id, 8, 4)}
                              </Link>
                            </td>
                            <td data-testid="payment-rail">{p.rail ?? "—"}</td>
                            <td className="font-mono text-xs whitespace-nowrap" title={p.payer ?? undefined} data-testid="payment-payer">
                              {p.card ? (
                                <span data-testid="payment-card" title={`processor: ${p.card.processor}`}>
                                  {cardLabel(p.card)}
                                </span>
                              ) : p.payer ? (
                                short(p.payer)
                              ) : (
                                "—"
                              )}
                            </td>
                            <td className="font-mono text-xs whitespace-nowrap" title={p.transaction ?? undefined} data-testid="payment-tx">
                              {p.transaction ? short(p.transaction) : "—"}
                              {p.refundTransaction && (
                                <span className="block text-sky-800" title={p.refundTransaction} data-testid="payment-refund-tx">
                                  refund {short(p.refundTransaction)}
                                </span>
                              )}
                              {p.card?.refund && (
                                <span className="block text-sky-800" title={p.card.refund.refundId ?? undefined} data-testid="payment-card-refund-state">
                                  refund {p.card.refund.status} ({p.card.refund.cause?.replace("_", " ")})
                                </span>
                              )}
                            </td>
                            <td className="whitespace-nowrap">
                              {p.refundInput === "none" && <Refund payment={p} />}
                              {p.refundInput === "transaction" && refunding !== p.id && (
                                <button
                                  className="text-xs text-indigo-700 underline"
                                  data-testid="payment-refund-open"
                                  aria-label={`Record a refund of payment ${p.id}`}
                                  onClick={() => setRefunding(p.id)}
                                >
                                  Refund
                                </button>
                              )}
                            </td>
                          </tr>
                          {refunding === p.id && (
                            <tr data-testid={`payment-refund-row-${p.id}`}>
                              <td colSpan={9} className="pb-3">
                                <Refund payment={p} onDone={() => setRefunding(null)} />
                              </td>
                            </tr>
                          )}
                        </Fragment>
                      ))}
                    </tbody>
                  </table>
                </TableScroll>
                <p className="mt-2 text-xs text-slate-500" data-testid="payments-shown">
                  {rows.length} shown{list.hasNextPage ? ", more below" : ""}. Amounts in USD.
                </p>
                <ShowOlder query={list} label="Show older payments" testId="payments-more" />
              </>
            )
          }
        </Loaded>
      </Section>
    </>
  );
}
