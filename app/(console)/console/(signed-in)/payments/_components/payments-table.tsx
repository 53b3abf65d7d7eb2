"use client";

import { useState } from "react";
import { RAIL_HELP, short, usd, utcCell } from "../../../_components/format";
import { OperationName } from "../../../_components/operation-name";
import { cardRefundWords } from "@/server/contracts/payment-words";
import { StateBadge } from "../../../_components/state-badge";
import { ShortId } from "@/app/_components/short-id";
import { STACKED_TABLE_CLASS, TableScroll } from "../../../_components/section";
import type { Outputs } from "../../../_components/types";
import { useSearchState } from "../../../_components/use-search-state";
import { cardLabel } from "./card-label";
import { Refund } from "./refund";

type Row = Outputs["payments"]["list"]["payments"][number];

/** A column heading that orders the list on the server (every page, not only the rows loaded). */
function ServerSortHeader({ label, orders, className = "" }: { label: string; orders: [string, string]; className?: string }) {
  const { params, set } = useSearchState();
  const sort = params.get("sort") ?? "newest";
  const active = orders.includes(sort);
  const next = active && sort === orders[0] ? orders[1] : orders[0];
  const aria = !active ? "none" : sort === "oldest" ? "ascending" : "descending";
  return (
    <th className={className} aria-sort={aria}>
      <button
        type="button"
        className="inline-flex min-h-6 items-center gap-1 font-medium whitespace-nowrap hover:text-slate-900"
        onClick={() => set({ sort: next === "newest" ? null : next })}
        data-testid={`sort-${orders[0]}`}
      >
        {label}
        <span aria-hidden className="text-xs">
          {active ? (aria === "ascending" ? "▲" : "▼") : "↕"}
        </span>
      </button>
    </th>
  );
}

function PayerCell({ p }: { p: Row }) {
  if (p.card)
    return (
      <>
        {p.card.payerEmail && (
          <span className="block font-sans" data-testid="payment-payer-email">
            {p.card.payerEmail}
          </span>
        )}
        <span data-testid="payment-card" title={`processor: ${p.card.processor}`}>
          {cardLabel(p.card)}
        </span>
      </>
    );
  return p.payer ? <span>{short(p.payer)}</span> : <span>—</span>;
}

function PaymentRow({ p, now }: { p: Row; now: number }) {
  return (
    <tr className="border-t border-slate-100 align-top" data-testid={`payment-row-${p.id}`} data-payment-id={p.id}>
      <td className="py-2 text-right font-medium tabular-nums" data-testid="payment-amount" data-value={p.amountUsd} data-label="Amount">
        {usd(p.amountUsd)}
      </td>
      <td data-label="State">
        <StateBadge
          status={p.status}
          partiallyRefunded={p.partiallyRefunded}
          settling={p.settling}
          expired={Date.parse(p.expiresAt) < now}
          reason={p.failureReason}
        />
        {p.unpaidDelivery && (
          <span
            className="ml-1 rounded bg-red-100 px-2 py-0.5 text-xs whitespace-nowrap text-red-900"
            data-testid="unpaid-delivery"
            title="The answer went out before the on-chain charge was included, and the charge failed: delivered, never paid for"
          >
            Unpaid delivery
          </span>
        )}
        {p.failureReason && <span className="sr-only"> ({p.failureReason})</span>}
      </td>
      <td title={`${p.method} ${p.path}${p.query ? `?${p.query}` : ""}`} data-label="Operation">
        <OperationName op={p.operation} testId="payment-operation" />
        {p.transport === "mcp" && (
          <span
            className="ml-1.5 rounded bg-violet-50 px-1 py-0.5 text-xs font-medium text-violet-800"
            title="an MCP tool call (at /mcp), not an HTTP API call"
            data-testid="payment-transport"
          >
            MCP
          </span>
        )}
      </td>
      <td className="font-mono text-xs whitespace-nowrap" title={p.payer ?? undefined} data-testid="payment-payer" data-label="Payer">
        <PayerCell p={p} />
      </td>
      <td data-testid="payment-rail" data-label="Rail" title={[p.rail ? RAIL_HELP[p.rail] : null, p.chain].filter(Boolean).join(" ") || undefined}>
        {p.rail ?? "—"}
      </td>
      <td className="font-mono text-xs whitespace-nowrap" data-testid="payment-created" data-label="Date (UTC)">
        {utcCell(p.createdAt)}
      </td>
      <td className="font-mono text-xs whitespace-nowrap" data-label="Payment">
        <ShortId value={p.id} what="payment id" href={`/console/payments/${encodeURIComponent(p.id)}`} testId="payment-link" />
      </td>
      <td className="font-mono text-xs whitespace-nowrap" title={p.transaction ?? undefined} data-testid="payment-tx" data-label="Settlement">
        {p.transaction ? short(p.transaction) : "—"}
        {p.refundTransaction && (
          <span className="block text-sky-800" title={p.refundTransaction} data-testid="payment-refund-tx">
            refund {short(p.refundTransaction)}
          </span>
        )}
        {p.card?.refund && (
          <span
            className="block text-sky-800"
            title={`${p.card.refund.status}, ${p.card.refund.cause ?? ""}${p.card.refund.refundId ? `: ${p.card.refund.refundId}` : ""}`}
            data-testid="payment-card-refund-state"
          >
            {cardRefundWords(p.card.refund)}
          </span>
        )}
      </td>
      <td className="whitespace-nowrap" data-label={p.refundable ? "Refund" : ""}>
        <Refund payment={p} label="Refund" />
      </td>
    </tr>
  );
}

/** The payments of the filtered set, one row each; on phones each row is a card with its fields labelled. */
export function PaymentsTable({ rows, label = "Payments" }: { rows: Row[]; label?: string }) {
  const [now] = useState(() => Date.now());
  return (
    <TableScroll label={label}>
      <table className={STACKED_TABLE_CLASS} data-testid="payments-table">
        <thead className="text-slate-600">
          <tr>
            <ServerSortHeader label="Amount" orders={["amount", "amount"]} className="py-1 text-right" />
            <th>State</th>
            <th>Operation</th>
            <th>Payer</th>
            <th>Rail</th>
            <ServerSortHeader label="Date (UTC)" orders={["newest", "oldest"]} />
            <th>Payment</th>
            <th>Settlement</th>
            <th>
              <span className="sr-only">Refund</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((p) => (
            <PaymentRow key={p.id} p={p} now={now} />
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}
