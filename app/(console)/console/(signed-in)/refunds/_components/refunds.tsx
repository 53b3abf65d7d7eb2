"use client";

import { useInfiniteQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useTRPC } from "../../../providers";
import { operationLabel, short, usd, utcCell } from "../../../_components/format";
import { Empty, Loaded, PageHeader, Section, STACKED_TABLE_CLASS, TableScroll, ShowOlder } from "../../../_components/section";

export function Refunds() {
  const trpc = useTRPC();
  const q = useInfiniteQuery(trpc.payments.refunds.infiniteQueryOptions({}, { getNextPageParam: (last) => last.nextCursor }));
  const rows = q.data?.pages.flatMap((p) => p.refunds) ?? [];
  return (
    <>
      <PageHeader title="Refunds">
        The platform holds no seller keys: to refund a wallet payment, send the USDC back from your payTo wallet, then open the payment (
        <Link href="/console/payments?status=settled,consumed" className="text-indigo-700 underline underline-offset-2">
          refundable payments
        </Link>
        ) and record the transaction. It is checked on chain before anything changes; the amount then leaves revenue.
      </PageHeader>
      <Section title="Recorded refunds" testId="section-refunds">
        <Loaded query={q} what="refunds">
          {() =>
            rows.length === 0 ? (
              <Empty testId="refunds-empty">No refund recorded yet.</Empty>
            ) : (
              <>
                <TableScroll label="Recorded refunds">
                  <table className={STACKED_TABLE_CLASS} data-testid="refunds-table">
                    <thead className="text-slate-600">
                      <tr>
                        <th className="py-1">Recorded (UTC)</th>
                        <th>Payment</th>
                        <th>Operation</th>
                        <th className="text-right">Amount</th>
                        <th>Payer</th>
                        <th>Transaction</th>
                        <th>By</th>
                      </tr>
                    </thead>
                    <tbody>
                      {rows.map((r) => (
                        <tr key={r.id} className="border-t border-slate-100" data-testid={`refund-row-${r.paymentId}`}>
                          <td className="py-1.5 font-mono text-xs whitespace-nowrap" data-label="Recorded (UTC)">
                            {utcCell(r.refundedAt)}
                          </td>
                          <td className="font-mono text-xs whitespace-nowrap" data-label="Payment">
                            <Link href={`/console/payments/${r.paymentId}`} className="text-indigo-700 underline underline-offset-2" title={r.paymentId}>
                              {short(r.paymentId, 8, 4)}
                            </Link>
                          </td>
                          <td data-label="Operation">{operationLabel(r.operation)}</td>
                          <td className="text-right tabular-nums" data-label="Amount">
                            {usd(r.amountUsd)}
                          </td>
                          <td className="font-mono text-xs whitespace-nowrap" title={r.payer ?? undefined} data-label="Payer">
                            {r.payer ? short(r.payer) : "—"}
                          </td>
                          <td className="font-mono text-xs whitespace-nowrap" title={r.transaction ?? undefined} data-label="Transaction">
                            {r.transaction ? (
                              r.transactionUrl ? (
                                <a href={r.transactionUrl} target="_blank" rel="noreferrer" className="text-indigo-700 underline underline-offset-2">
                                  {short(r.transaction)}
                                </a>
                              ) : (
                                short(r.transaction)
                              )
                            ) : (
                              "—"
                            )}
                          </td>
                          <td className="break-all" data-label="By">
                            {r.recordedBy ?? "—"}
                          </td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </TableScroll>
                <ShowOlder query={q} label="Show older refunds" />
              </>
            )
          }
        </Loaded>
      </Section>
    </>
  );
}
