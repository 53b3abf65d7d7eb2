"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useTRPC } from "../../../providers";
import { count, usd, utcCell } from "../../../_components/format";
import { describeRange } from "../../../_components/range-picker";
import { Empty, LINK, Loaded, Section, STACKED_TABLE_CLASS, TableScroll } from "../../../_components/section";
import { microsOf, useSort } from "../../../_components/sortable";
import type { Outputs } from "../../../_components/types";
import { useSearchState } from "../../../_components/use-search-state";
import { customerHref } from "../[id]/_components/customer-detail";
import { cardPayersInput } from "./customers-input";

type CardPayer = Outputs["customers"]["cardPayers"]["payers"][number];
const COLUMNS = {
  payer: (p: CardPayer) => p.email ?? p.cards[0] ?? "",
  payments: (p: CardPayer) => p.payments,
  refunds: (p: CardPayer) => p.refunds,
  paid: (p: CardPayer) => microsOf(p.paidUsd),
  last: (p: CardPayer) => p.lastAt ?? "",
};

function CardPayersTable({ payers }: { payers: CardPayer[] }) {
  const t = useSort(payers, COLUMNS, { key: "paid", dir: "desc" });
  return (
    <TableScroll label="Card payers">
      <table className={STACKED_TABLE_CLASS} data-testid="card-payers-table">
        <thead className="text-slate-600">
          <tr>
            {t.header("payer", "Payer", "py-1")}
            <th>Cards</th>
            {t.header("payments", "Payments", "text-right")}
            {t.header("refunds", "Refunded", "text-right")}
            {t.header("paid", "Paid (net)", "text-right")}
            {t.header("last", "Last payment (UTC)")}
          </tr>
        </thead>
        <tbody>
          {t.rows.map((p) => (
            <tr key={p.email ?? p.cards.join()} className="border-t border-slate-100" data-testid="card-payer-row">
              <td className="py-1.5 whitespace-nowrap" data-label="Payer">
                {p.email ? (
                  <Link className={LINK} href={customerHref(p.email)} data-testid="card-payer-email">
                    {p.email}
                  </Link>
                ) : (
                  <span className="text-slate-600">no email given</span>
                )}
              </td>
              <td className="font-mono text-xs" data-label="Cards">
                {p.cards.join(", ")}
              </td>
              <td className="text-right tabular-nums" data-label="Payments">
                {count(p.payments)}
              </td>
              <td className="text-right tabular-nums" data-label="Refunded" data-value={p.refundedUsd}>
                {p.refunds ? `${count(p.refunds)} · ${usd(p.refundedUsd)}` : "0"}
              </td>
              <td className="text-right tabular-nums" data-value={p.paidUsd} data-label="Paid (net)" data-testid="card-payer-paid">
                {usd(p.paidUsd)}
              </td>
              <td className="font-mono text-xs whitespace-nowrap" data-label="Last payment (UTC)">
                {utcCell(p.lastAt)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}

/** The people who paid card checkouts in the range: by the email they gave for the receipt, or by card. */
export function CardPayers() {
  const trpc = useTRPC();
  const { params } = useSearchState();
  const q = useQuery(trpc.customers.cardPayers.queryOptions(cardPayersInput(params)));
  return (
    <Loaded query={q} what="card payers">
      {(d) => (
        <Section title={`Card payers · ${describeRange(d.range)}`} testId="section-card-payers">
          <p className="mb-2 text-sm text-slate-600">
            People who paid a card checkout, by the email they gave for their receipt (optional at checkout), or by card when they gave none.
          </p>
          {d.payers.length === 0 ? <Empty testId="card-payers-empty">No card payments in this range.</Empty> : <CardPayersTable payers={d.payers} />}
        </Section>
      )}
    </Loaded>
  );
}
