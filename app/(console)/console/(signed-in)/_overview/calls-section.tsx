"use client";

import Link from "next/link";
import { CallsByOperationChart } from "../../_components/charts";
import { count, usd } from "../../_components/format";
import { OperationName, useOperationAxisLabels } from "../../_components/operation-name";
import { Empty, LINK, Section, STACKED_TABLE_CLASS, TableScroll } from "../../_components/section";
import type { Outputs } from "../../_components/types";

/** Usage: calls per operation (charged and drawn on prepaid credit), most calls first. Money is ranked above. */
export function CallsSection({ o }: { o: Outputs["analytics"]["overview"] }) {
  const labelOf = useOperationAxisLabels();
  return (
    <Section
      title="Calls per operation"
      testId="section-operations"
      actions={
        <Link href="/console/usage" className={`${LINK} text-sm`}>
          Usage on prepaid credit
        </Link>
      }
    >
      {o.byOperation.length === 0 ? (
        <Empty testId="operations-empty">No paid calls in this range.</Empty>
      ) : (
        <div className="grid gap-4 lg:grid-cols-2">
          <CallsByOperationChart rows={o.byOperation} labelOf={labelOf} />
          <TableScroll label="Calls per operation">
            <table className={STACKED_TABLE_CLASS} data-testid="operations-table">
              <thead className="text-slate-600">
                <tr>
                  <th>Operation</th>
                  <th className="text-right">Paid calls</th>
                  <th className="text-right">Refunds</th>
                  <th className="text-right">Net revenue</th>
                </tr>
              </thead>
              <tbody>
                {o.byOperation.map((r) => (
                  <tr key={r.operation} className="border-t border-slate-100" data-testid={`operation-row-${r.operation}`}>
                    <td className="py-1.5" data-label="Operation">
                      <OperationName op={r.operation} />
                    </td>
                    <td className="text-right tabular-nums" data-label="Paid calls">
                      {count(r.calls)}
                    </td>
                    <td className="text-right tabular-nums" data-label="Refunds">
                      {count(r.refunds)}
                    </td>
                    <td className="text-right tabular-nums" data-value={r.netUsd} data-label="Net revenue">
                      {usd(r.netUsd)}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        </div>
      )}
      <p className="mt-2 text-xs text-slate-600">Paid calls count calls charged per request and calls served on prepaid credit.</p>
    </Section>
  );
}
