"use client";

import { RevenueChart } from "../../_components/charts";
import { count, usd } from "../../_components/format";
import { Empty, Section, STACKED_TABLE_CLASS, TableScroll } from "../../_components/section";
import type { Outputs } from "../../_components/types";

type Overview = Outputs["analytics"]["overview"];

/** Net revenue per hour or day beside the previous period's, drawn and as a table. */
export function RevenueSection({ o }: { o: Overview }) {
  const hourly = o.range.bucket === "hour";
  return (
    <Section title={hourly ? "Net revenue per hour (UTC)" : "Net revenue per day (UTC)"} testId="section-revenue">
      {o.totals.paidCalls === 0 && o.totals.refunds === 0 ? (
        <Empty testId="revenue-empty">No paid calls in this range. Paid calls appear here as soon as they settle.</Empty>
      ) : (
        <>
          <RevenueChart series={o.series} bucket={o.range.bucket} />
          <p className="mt-1 text-xs text-slate-600">
            Bars: this period. Dashed line: the previous period (from {o.previous.start.slice(0, 10)}), lined up {hourly ? "hour by hour" : "day by day"}.
          </p>
          <details className="mt-2 text-sm">
            <summary className="min-h-6 cursor-pointer text-indigo-700 underline underline-offset-2">Show as a table</summary>
            <TableScroll label="Net revenue per bucket">
              <table className={`${STACKED_TABLE_CLASS} mt-2`} data-testid="revenue-table">
                <thead className="text-slate-600">
                  <tr>
                    <th>{hourly ? "Hour (UTC)" : "Day (UTC)"}</th>
                    <th className="text-right">Paid calls</th>
                    <th className="text-right">Charged</th>
                    <th className="text-right">Refunded</th>
                    <th className="text-right">Net</th>
                    <th className="text-right">Previous period</th>
                  </tr>
                </thead>
                <tbody>
                  {o.series.map((s) => (
                    <tr key={s.bucket} className="border-t border-slate-100" data-testid={`revenue-row-${s.bucket}`}>
                      <td className="py-1 font-mono text-xs" data-label={hourly ? "Hour (UTC)" : "Day (UTC)"}>
                        {hourly ? `${s.bucket.slice(0, 10)} ${s.bucket.slice(11)}:00` : s.bucket}
                      </td>
                      <td className="text-right tabular-nums" data-label="Paid calls">
                        {count(s.calls)}
                      </td>
                      <td className="text-right tabular-nums" data-label="Charged">
                        {usd(s.chargedUsd)}
                      </td>
                      <td className="text-right tabular-nums" data-label="Refunded">
                        {usd(s.refundedUsd)}
                      </td>
                      <td className="text-right tabular-nums" data-testid="revenue-net" data-value={s.netUsd} data-label="Net">
                        {usd(s.netUsd)}
                      </td>
                      <td className="text-right tabular-nums text-slate-600" data-label="Previous period" title={s.previousBucket}>
                        {usd(s.previousNetUsd)}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableScroll>
          </details>
        </>
      )}
    </Section>
  );
}
