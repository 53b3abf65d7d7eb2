"use client";

import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useTRPC } from "../../../providers";
import { ShortId } from "@/app/_components/short-id";
import { count, railLabel, usd, utcCell } from "../../../_components/format";
import { OperationName } from "../../../_components/operation-name";
import { Empty, Kpi, LINK, Loaded, PageHeader, Section, STACKED_TABLE_CLASS, TableScroll, ShowOlder } from "../../../_components/section";
import type { Outputs } from "../../../_components/types";
import { useSearchState } from "../../../_components/use-search-state";
import { customerHref } from "../../customers/[id]/_components/customer-detail";
import { RefundFilters } from "./refund-filters";
import { REFUND_STATUS_WORDS, rangeProblem, refundsInput } from "./refunds-input";

type Refund = Outputs["payments"]["refunds"]["refunds"][number];

const STATUS_TONE: Record<Refund["status"], string> = {
  succeeded: "bg-slate-100 text-slate-800",
  pending: "bg-amber-100 text-amber-900",
  failed: "bg-red-100 text-red-800",
};

/** Who was refunded: the wallet (shortened, copyable), else the card payer's email or card; each leads to their page. */
function Payer({ r }: { r: Refund }) {
  const who = r.payerEmail ?? (r.rail === "card" ? null : r.payer);
  const card = r.card ? `${(r.card.brand ?? "card").toUpperCase()} •••• ${r.card.last4}` : null;
  if (!who) return <span className="text-slate-600">{card ?? "—"}</span>;
  return (
    <span className="inline-flex flex-wrap items-center">
      {r.payerEmail ? (
        <Link className={`${LINK} break-all`} href={customerHref(who)} title={who}>
          {who}
        </Link>
      ) : (
        <ShortId value={who} what="wallet address" href={customerHref(who)} head={6} tail={4} />
      )}
      {card && <span className="block w-full font-mono text-xs text-slate-600">{card}</span>}
    </span>
  );
}

/** Where the money went back: the transaction on chain (wallets) or the card processor's refund id (re_...). */
function Reference({ r }: { r: Refund }) {
  if (r.transaction)
    return <ShortId value={r.transaction} what="refund transaction" href={r.transactionUrl ?? undefined} head={6} tail={4} copyTestId="refund-copy-tx" />;
  if (r.processorRefundId) return <ShortId value={r.processorRefundId} what="card refund id" head={10} tail={4} testId="refund-processor-id" />;
  return <span className="text-slate-600">{r.rail === "card" ? "not confirmed by the processor yet" : "—"}</span>;
}

function RefundsTable({ rows }: { rows: Refund[] }) {
  return (
    <TableScroll label="Refunds">
      <table className={STACKED_TABLE_CLASS} data-testid="refunds-table">
        <thead className="text-slate-600">
          <tr>
            <th className="py-1">Refunded (UTC)</th>
            <th className="text-right">Amount</th>
            <th>Status</th>
            <th>Reason</th>
            <th>Payment</th>
            <th>Paid with</th>
            <th>Customer</th>
            <th>Refund reference</th>
            <th>By</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.id} className="border-t border-slate-100 align-top" data-testid={`refund-row-${r.paymentId}`} data-status={r.status}>
              <td className="py-1.5 font-mono text-xs whitespace-nowrap" data-label="Refunded (UTC)">
                {utcCell(r.refundedAt)}
              </td>
              <td className="text-right tabular-nums" data-label="Amount" data-value={r.amountUsd} data-testid="refund-amount">
                {usd(r.amountUsd)}
                {r.amountUsd !== r.paymentAmountUsd && (
                  <span className="block text-xs text-slate-700" data-testid="refund-partial">
                    partial, of {usd(r.paymentAmountUsd)}
                  </span>
                )}
              </td>
              <td data-label="Status">
                <span
                  className={`rounded px-2 py-0.5 text-xs whitespace-nowrap ${STATUS_TONE[r.status]}`}
                  title={r.refundError ?? undefined}
                  data-testid="refund-status"
                >
                  {REFUND_STATUS_WORDS[r.status]}
                </span>
              </td>
              <td className="min-w-40" data-label="Reason" data-testid="refund-reason">
                {r.reason}
              </td>
              <td className="font-mono text-xs whitespace-nowrap" data-label="Payment">
                <ShortId
                  value={r.paymentId}
                  what="payment id"
                  href={`/console/payments/${encodeURIComponent(r.paymentId)}`}
                  head={8}
                  tail={4}
                  copy={false}
                  testId="refund-payment-link"
                />
                <OperationName op={r.operation} className="block font-sans whitespace-normal text-slate-600" testId="refund-operation" />
              </td>
              <td data-label="Paid with">{railLabel(r.rail)}</td>
              <td data-label="Customer">
                <Payer r={r} />
              </td>
              <td data-label="Refund reference">
                <Reference r={r} />
              </td>
              <td className="break-all" data-label="By">
                {r.recordedBy ?? (r.reason.startsWith("Automatic") ? "the storefront" : "—")}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}

function Totals({ input }: { input: ReturnType<typeof refundsInput> }) {
  const trpc = useTRPC();
  const q = useQuery(trpc.payments.refundsSummary.queryOptions(input));
  return (
    <Loaded query={q} what="refund totals">
      {(s) => (
        <div className="mt-4 grid grid-cols-2 gap-3 lg:grid-cols-4" data-testid="refund-totals">
          <Kpi
            label="Refunded"
            value={usd(s.amountUsd)}
            exact={s.amountUsd}
            note={`${count(s.count)} refund${s.count === 1 ? "" : "s"}`}
            testId="refunds-total"
          />
          {s.byStatus.map((b) => (
            <Kpi
              key={b.status}
              label={REFUND_STATUS_WORDS[b.status]}
              value={usd(b.amountUsd)}
              exact={b.amountUsd}
              note={`${count(b.count)}`}
              testId={`refunds-total-${b.status}`}
            />
          ))}
        </div>
      )}
    </Loaded>
  );
}

function List({ input }: { input: ReturnType<typeof refundsInput> }) {
  const trpc = useTRPC();
  const q = useInfiniteQuery(trpc.payments.refunds.infiniteQueryOptions(input, { getNextPageParam: (last) => last.nextCursor }));
  const rows = q.data?.pages.flatMap((p) => p.refunds) ?? [];
  return (
    <Loaded query={q} what="refunds">
      {() =>
        rows.length === 0 ? (
          <Empty testId="refunds-empty">No refund matches these filters.</Empty>
        ) : (
          <>
            <RefundsTable rows={rows} />
            <ShowOlder query={q} label="Show older refunds" />
          </>
        )
      }
    </Loaded>
  );
}

export function Refunds() {
  const { params } = useSearchState();
  const input = refundsInput(params);
  const problem = rangeProblem(input);
  return (
    <>
      <PageHeader title="Refunds">
        Every refund, newest first, with its status and reason. A card refund is sent by the card processor (its refund id is shown once it confirms). The
        platform holds no seller keys: to refund a wallet payment, send the USDC back from your payout wallet, then open the payment (
        <Link href="/console/payments?status=settled,consumed" className={LINK}>
          refundable payments
        </Link>
        ) and record the transaction; it is checked on chain before anything changes.
      </PageHeader>
      <RefundFilters />
      {problem ? (
        <p role="alert" className="mt-4 rounded border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900" data-testid="refunds-range-problem">
          {problem}
        </p>
      ) : (
        <>
          <Totals input={input} />
          <Section title="Refunds" testId="section-refunds">
            <List input={input} />
          </Section>
        </>
      )}
    </>
  );
}
