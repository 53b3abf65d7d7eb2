"use client";

import { RevenueBarsChart } from "../../_components/charts";
import { count, railLabel, usd } from "../../_components/format";
import { OperationName, useOperationAxisLabels } from "../../_components/operation-name";
import { Empty, Section, STACKED_TABLE_CLASS, TableScroll } from "../../_components/section";
import { microsOf, useSort } from "../../_components/sortable";
import type { Outputs } from "../../_components/types";
import { ByTransport } from "./by-transport";

type Row = { name: string; payments: number; refunds: number; chargedUsd: string; refundedUsd: string; netUsd: string; sharePercent: string | null };

const COLUMNS = {
  name: (r: Row) => r.name,
  payments: (r: Row) => r.payments,
  refunds: (r: Row) => r.refunds,
  net: (r: Row) => microsOf(r.netUsd),
} as const;

function RevenueTable({ rows, what, testId }: { rows: Row[]; what: string; testId: string }) {
  const t = useSort(rows, COLUMNS, { key: "net", dir: "desc" });
  return (
    <TableScroll label={`Revenue by ${what}`}>
      <table className={STACKED_TABLE_CLASS} data-testid={testId}>
        <thead className="text-slate-600">
          <tr>
            {t.header("name", what === "rail" ? "Rail" : "Operation")}
            {t.header("payments", "Payments", "text-right")}
            {t.header("refunds", "Refunds", "text-right")}
            {t.header("net", "Net revenue", "text-right")}
            <th className="text-right">Share</th>
          </tr>
        </thead>
        <tbody>
          {t.rows.map((r) => (
            <tr key={r.name} className="border-t border-slate-100" data-testid={`${testId}-row-${r.name}`}>
              <td className="py-1.5" data-label={what === "rail" ? "Rail" : "Operation"}>
                {what === "rail" ? railLabel(r.name) : <OperationName op={r.name} />}
              </td>
              <td className="text-right tabular-nums" data-label="Payments">
                {count(r.payments)}
              </td>
              <td className="text-right tabular-nums" data-label="Refunds" title={r.refunds ? `${usd(r.refundedUsd)} refunded` : undefined}>
                {count(r.refunds)}
              </td>
              <td className="text-right tabular-nums" data-value={r.netUsd} data-label="Net revenue">
                {usd(r.netUsd)}
              </td>
              <td className="text-right tabular-nums" data-label="Share">
                {r.sharePercent === null ? "—" : `${r.sharePercent}%`}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}

/** Where the money came from: revenue by operation (plan purchases included) and by rail, most first. */
export function RevenueBreakdown({ o }: { o: Outputs["analytics"]["overview"] }) {
  const byOperation = o.revenueByOperation.map(({ operation, ...r }) => ({ name: operation, ...r }));
  const byRail = o.revenueByRail.map(({ rail, ...r }) => ({ name: rail, ...r }));
  const labelOf = useOperationAxisLabels();
  return (
    <Section title="Revenue by operation and rail" testId="section-revenue-breakdown">
      {byOperation.length === 0 ? (
        <Empty testId="revenue-breakdown-empty">No money moved in this range.</Empty>
      ) : (
        <div className="grid gap-6 lg:grid-cols-2">
          <div>
            <RevenueBarsChart
              rows={byOperation.map((r) => ({ name: r.name, netUsd: r.netUsd }))}
              labelOf={labelOf}
              testId="chart-revenue-by-operation"
              label="Net revenue per operation"
            />
            <RevenueTable rows={byOperation} what="operation" testId="revenue-by-operation" />
          </div>
          <div>
            <RevenueTable rows={byRail} what="rail" testId="revenue-by-rail" />
          </div>
        </div>
      )}
      <ByTransport o={o} />
    </Section>
  );
}
