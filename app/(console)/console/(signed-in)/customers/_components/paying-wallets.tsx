"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useTRPC } from "../../../providers";
import { count, short, usd, utcCell } from "../../../_components/format";
import { describeRange } from "../../../_components/range-picker";
import { BUTTON_SECONDARY, Empty, LINK, Loaded, Section, STACKED_TABLE_CLASS, TableScroll } from "../../../_components/section";
import { microsOf, useSort } from "../../../_components/sortable";
import type { Outputs } from "../../../_components/types";
import { useSearchState } from "../../../_components/use-search-state";
import { customerHref } from "../[id]/_components/customer-detail";
import { payersInput } from "./customers-input";

type Payer = Outputs["customers"]["payers"]["payers"][number];
const COLUMNS = {
  payer: (p: Payer) => p.payer,
  calls: (p: Payer) => p.calls,
  refunds: (p: Payer) => p.refunds,
  net: (p: Payer) => microsOf(p.netUsd),
  last: (p: Payer) => p.lastAt,
};

function PayersTable({ payers }: { payers: Payer[] }) {
  const t = useSort(payers, COLUMNS, { key: "net", dir: "desc" });
  return (
    <TableScroll label="Paying wallets">
      <table className={STACKED_TABLE_CLASS} data-testid="payers-table">
        <thead className="text-slate-600">
          <tr>
            {t.header("payer", "Payer", "py-1")}
            <th>Rails</th>
            {t.header("calls", "Paid calls", "text-right")}
            {t.header("refunds", "Refunds", "text-right")}
            {t.header("net", "Spend (net)", "text-right")}
            {t.header("last", "Last paid call (UTC)")}
          </tr>
        </thead>
        <tbody>
          {t.rows.map((p) => (
            <tr key={p.payer} className="border-t border-slate-100" data-testid={`payer-row-${p.payer}`}>
              <td className="py-1.5 font-mono text-xs whitespace-nowrap" title={p.payer} data-label="Payer">
                <Link className={LINK} href={customerHref(p.payer)}>
                  {short(p.payer, 10, 6)}
                </Link>
              </td>
              <td data-label="Rails">{p.rails.join(", ")}</td>
              <td className="text-right tabular-nums" data-label="Paid calls">
                {count(p.calls)}
              </td>
              <td className="text-right tabular-nums" data-label="Refunds">
                {count(p.refunds)}
              </td>
              <td className="text-right tabular-nums" data-value={p.netUsd} data-label="Spend (net)">
                {usd(p.netUsd)}
              </td>
              <td className="font-mono text-xs whitespace-nowrap" data-label="Last paid call (UTC)">
                {utcCell(p.lastAt)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}

/** The wallets that paid in the range, biggest spenders first, 50 a page. */
export function PayingWallets() {
  const trpc = useTRPC();
  const { params, set } = useSearchState();
  const q = useQuery(trpc.customers.payers.queryOptions(payersInput(params)));
  return (
    <Loaded query={q} what="paying wallets">
      {(d) => (
        <Section title={`Paying wallets · ${describeRange(d.range)}`} testId="section-payers">
          {d.payers.length === 0 ? (
            <Empty testId="payers-empty">No one paid in this range.</Empty>
          ) : (
            <>
              <PayersTable payers={d.payers} />
              <div className="mt-3 flex items-center gap-3 text-sm" data-testid="payers-pages">
                <span className="text-slate-700">
                  {count(d.total)} payer{d.total === 1 ? "" : "s"} · page {d.page} of {d.pages}
                </span>
                {d.page > 1 && (
                  <button className={BUTTON_SECONDARY} onClick={() => set({ page: String(d.page - 1) })}>
                    Previous
                  </button>
                )}
                {d.page < d.pages && (
                  <button className={BUTTON_SECONDARY} onClick={() => set({ page: String(d.page + 1) })}>
                    Next
                  </button>
                )}
              </div>
            </>
          )}
        </Section>
      )}
    </Loaded>
  );
}
