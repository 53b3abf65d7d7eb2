"use client";

import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Fragment, useState } from "react";
import { useTRPC } from "./providers";
import { Empty, Loaded, Section, TABLE_CLASS } from "./section";

/** 0x1234567890abcdef... -> 0x1234…cdef (the full value goes in a title attribute). */
function short(value: string, head = 6, tail = 4): string {
  return value.length <= head + tail + 1 ? value : `${value.slice(0, head)}…${value.slice(-tail)}`;
}

/** 2025-01-02T03:04:05.678Z -> 2025-01-02 03:04:05 UTC (the same on the server and every browser). */
function utc(iso: string): string {
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)} UTC`;
}

const STATE_STYLE: Record<string, string> = {
  challenged: "bg-slate-100 text-slate-600",
  incomplete: "bg-amber-50 text-amber-800",
  verified: "bg-amber-100 text-amber-800",
  settled: "bg-emerald-100 text-emerald-800",
  consumed: "bg-emerald-100 text-emerald-800",
  released: "bg-slate-100 text-slate-600",
  refunded: "bg-sky-100 text-sky-800",
  failed: "bg-red-100 text-red-800",
};

function Totals() {
  const trpc = useTRPC();
  const totals = useQuery(trpc.payments.totals.queryOptions());
  return (
    <Loaded query={totals} what="totals">
      {(t) => (
        <div className="mb-4" data-testid="payments-totals">
          <p>
            <span className="text-slate-500">Revenue settled</span>{" "}
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
          <ul className="mt-2 flex flex-wrap gap-2 text-xs" data-testid="payments-by-state">
            {t.byStatus.map((s) => (
              <li
                key={s.status}
                className={`rounded px-2 py-0.5 ${STATE_STYLE[s.status] ?? ""}`}
                title={`$${s.amountUsd}`}
                data-testid={`payments-count-${s.status}`}
              >
                {s.status} <span className="font-mono">{s.count}</span>
              </li>
            ))}
          </ul>
        </div>
      )}
    </Loaded>
  );
}

/**
 * Record a refund the seller already sent on chain: USDC from their payTo wallet back to the payer. The server
 * checks the transaction on chain before anything changes (server/payments/refund.ts).
 */
function RefundForm({ payment, onDone }: { payment: { id: string; amountUsd: string; payer: string | null }; onDone: () => void }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const [transaction, setTransaction] = useState("");
  const record = useMutation(
    trpc.payments.recordRefund.mutationOptions({
      onSuccess: async () => {
        await Promise.all([
          qc.invalidateQueries({ queryKey: trpc.payments.list.pathKey() }),
          qc.invalidateQueries({ queryKey: trpc.payments.totals.queryKey() }),
          qc.invalidateQueries({ queryKey: trpc.catalog.auditLog.queryKey() }),
        ]);
        onDone();
      },
    }),
  );
  return (
    <form
      className="flex flex-wrap items-end gap-3 rounded bg-slate-50 p-3 text-sm"
      data-testid="payment-refund-form"
      onSubmit={(e) => {
        e.preventDefault();
        record.reset();
        record.mutate({ paymentId: payment.id, transaction: transaction.trim() });
      }}
    >
      <p className="w-full text-slate-600">
        Send {payment.amountUsd} USDC (or more; {payment.amountUsd} is recorded) from your payTo wallet to the payer{" "}
        <span className="font-mono text-xs">{payment.payer}</span> on Base, then paste the transaction hash. It is checked on chain; the payment becomes
        refunded and its amount leaves revenue.
      </p>
      <label className="grid grow gap-1">
        <span className="text-slate-600">Refund transaction hash</span>
        <input
          data-testid="payment-refund-hash"
          className="rounded border border-slate-300 px-2 py-1 font-mono text-xs"
          value={transaction}
          onChange={(e) => setTransaction(e.target.value)}
          placeholder="0x…"
          autoFocus
        />
      </label>
      <button
        data-testid="payment-refund-submit"
        className="rounded bg-indigo-600 px-3 py-1 text-white disabled:opacity-50"
        disabled={record.isPending || !transaction.trim()}
      >
        {record.isPending ? "Checking on chain" : "Record refund"}
      </button>
      <button type="button" className="rounded border border-slate-300 px-3 py-1" onClick={onDone}>
        Cancel
      </button>
      {record.error && (
        <p role="alert" data-testid="payment-refund-error" className="w-full text-red-700">
          {record.error.message}
        </p>
      )}
    </form>
  );
}

/**
 * Refund a card payment in full with one click: the card processor's refund, the ledger's refund row and the audit
 * row (server/payments/card/refund-card-payment.ts). A second click, or a retried request, returns the first result.
 */
function CardRefundButton({ paymentId }: { paymentId: string }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const refund = useMutation(
    trpc.payments.refundCard.mutationOptions({
      onSuccess: () =>
        Promise.all([
          qc.invalidateQueries({ queryKey: trpc.payments.list.pathKey() }),
          qc.invalidateQueries({ queryKey: trpc.payments.totals.queryKey() }),
          qc.invalidateQueries({ queryKey: trpc.catalog.auditLog.queryKey() }),
        ]),
    }),
  );
  return (
    <>
      <button
        className="text-xs text-indigo-700 underline disabled:opacity-50"
        data-testid="payment-card-refund"
        disabled={refund.isPending}
        onClick={() => refund.mutate({ paymentId })}
      >
        {refund.isPending ? "Refunding" : "Refund card"}
      </button>
      {refund.error && (
        <span role="alert" className="block text-xs text-red-700" data-testid="payment-card-refund-error">
          {refund.error.message}
        </span>
      )}
    </>
  );
}

export function PaymentsSection() {
  const trpc = useTRPC();
  const [includeChallenged, setIncludeChallenged] = useState(false);
  const [refunding, setRefunding] = useState<string | null>(null);
  const list = useInfiniteQuery(trpc.payments.list.infiniteQueryOptions({ includeChallenged }, { getNextPageParam: (last) => last.nextCursor }));
  const rows = list.data?.pages.flatMap((p) => p.payments) ?? [];
  return (
    <Section title="Payments">
      <Totals />
      <label className="mb-3 flex items-center gap-2 text-sm text-slate-600">
        <input type="checkbox" data-testid="payments-include-challenged" checked={includeChallenged} onChange={(e) => setIncludeChallenged(e.target.checked)} />
        Show unpaid 402 challenges (no proof was sent; nothing was paid)
      </label>
      <Loaded query={list} what="payments">
        {() =>
          rows.length === 0 ? (
            <Empty testId="payments-empty">No payments yet.</Empty>
          ) : (
            <>
              <table className={TABLE_CLASS} data-testid="payments-table">
                <thead className="text-slate-500">
                  <tr>
                    <th className="py-1">Time</th>
                    <th>Payment</th>
                    <th>Operation</th>
                    <th className="text-right">Amount (USD)</th>
                    <th>Rail</th>
                    <th>Payer</th>
                    <th>State</th>
                    <th>Settlement</th>
                    <th>
                      <span className="sr-only">Refund</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {rows.map((p) => (
                    <Fragment key={p.id}>
                      <tr className="border-t border-slate-100" data-testid={`payment-row-${p.id}`}>
                        <td className="py-2 whitespace-nowrap font-mono text-xs">{utc(p.createdAt)}</td>
                        <td className="whitespace-nowrap font-mono text-xs" title={p.id}>
                          {short(p.id, 8, 4)}
                        </td>
                        <td title={`${p.method} ${p.path}${p.query ? `?${p.query}` : ""}`}>
                          <span className="font-mono">{p.operation}</span> <span className="font-mono text-xs text-slate-500">{p.path}</span>
                        </td>
                        <td className="text-right font-mono">{p.amountUsd}</td>
                        <td>
                          {p.rail ?? "—"}
                          {p.card && (
                            <span
                              className="block whitespace-nowrap text-xs text-slate-500"
                              data-testid="payment-card"
                              title={`processor: ${p.card.processor}`}
                            >
                              {p.card.brand && p.card.last4 ? `${p.card.brand.toUpperCase()} •••• ${p.card.last4}` : p.card.flow}
                              {p.card.processor === "test" ? " (test)" : ""}
                            </span>
                          )}
                        </td>
                        <td className="whitespace-nowrap font-mono text-xs" title={p.payer ?? undefined}>
                          {p.payer ? short(p.payer) : "-"}
                        </td>
                        <td>
                          <span
                            className={`whitespace-nowrap rounded px-2 py-0.5 text-xs ${STATE_STYLE[p.status] ?? ""}`}
                            title={p.failureReason ?? undefined}
                            data-testid="payment-state"
                          >
                            {p.status}
                            {p.settling ? " (settling)" : ""}
                          </span>
                        </td>
                        <td className="whitespace-nowrap font-mono text-xs" title={p.transaction ?? undefined} data-testid="payment-tx">
                          {p.transaction ? short(p.transaction) : "-"}
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
                          {p.refundable && p.rail === "card" && <CardRefundButton paymentId={p.id} />}
                          {p.refundable && p.rail !== "card" && refunding !== p.id && (
                            <button className="text-xs text-indigo-700 underline" data-testid="payment-refund-open" onClick={() => setRefunding(p.id)}>
                              Record refund
                            </button>
                          )}
                        </td>
                      </tr>
                      {refunding === p.id && (
                        <tr data-testid={`payment-refund-row-${p.id}`}>
                          <td colSpan={9} className="pb-3">
                            <RefundForm payment={p} onDone={() => setRefunding(null)} />
                          </td>
                        </tr>
                      )}
                    </Fragment>
                  ))}
                </tbody>
              </table>
              {list.hasNextPage && (
                <button
                  className="mt-3 rounded border border-slate-300 px-3 py-1 text-sm text-indigo-700 disabled:opacity-50"
                  data-testid="payments-more"
                  disabled={list.isFetchingNextPage}
                  onClick={() => list.fetchNextPage()}
                >
                  {list.isFetchingNextPage ? "Loading" : "Show older payments"}
                </button>
              )}
            </>
          )
        }
      </Loaded>
    </Section>
  );
}
