"use client";

import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "../../../providers";
import { MeterUsageChart } from "../../../_components/charts";
import { count } from "../../../_components/format";
import { Empty, Loaded, Section, TABLE_CLASS, TableScroll } from "../../../_components/section";

/** Served calls per meter per day over the last 30 days (charged per call or drawn on prepaid credit), drawn and as a table. */
export function MeterUsage() {
  const trpc = useTRPC();
  const usage = useQuery(trpc.analytics.meterUsage.queryOptions({ preset: "30d" }));
  return (
    <Section title="Usage per meter, last 30 days (UTC)" testId="section-meter-usage">
      <Loaded query={usage} what="usage">
        {(u) =>
          u.meters.length === 0 ? (
            <Empty testId="meter-usage-empty">No served calls in the last 30 days.</Empty>
          ) : (
            <>
              <MeterUsageChart days={u.days} meters={u.meters} />
              <details className="mt-2 text-sm">
                <summary className="min-h-6 cursor-pointer text-indigo-700 underline underline-offset-2">Show as a table</summary>
                <TableScroll label="Usage per meter per day">
                  <table className={`${TABLE_CLASS} mt-2`} data-testid="meter-usage-table">
                    <thead className="text-slate-600">
                      <tr>
                        <th className="py-1">Day</th>
                        {u.meters.map((m) => (
                          <th key={m} className="text-right font-mono">
                            {m}
                          </th>
                        ))}
                      </tr>
                    </thead>
                    <tbody>
                      {u.days
                        .filter((d) => Object.values(d.calls).some((n) => n > 0))
                        .map((d) => (
                          <tr key={d.day} className="border-t border-slate-100">
                            <td className="py-1 font-mono text-xs">{d.day}</td>
                            {u.meters.map((m) => (
                              <td key={m} className="text-right font-mono" data-testid={`meter-usage-${d.day}-${m}`}>
                                {count(d.calls[m] ?? 0)}
                              </td>
                            ))}
                          </tr>
                        ))}
                    </tbody>
                  </table>
                </TableScroll>
              </details>
              <p className="mt-2 text-xs text-slate-600">
                Calls served and paid: charged on a rail or drawn on prepaid credit. Totals: {u.meters.map((m) => `${m} ${count(u.totals[m] ?? 0)}`).join(", ")}
                .
              </p>
            </>
          )
        }
      </Loaded>
    </Section>
  );
}
