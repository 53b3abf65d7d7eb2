"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useTRPC } from "../../providers";
import { CallsByOperationChart, RevenueChart } from "../../_components/charts";
import { change, count, usd } from "../../_components/format";
import { RangePicker, describeRange } from "../../_components/range-picker";
import { Empty, Kpi, Loaded, PageHeader, Section, TABLE_CLASS, TableScroll } from "../../_components/section";
import { rangeFrom, useSearchState } from "../../_components/use-search-state";

const direction = (p: string | null) => (p === null ? "none" : p.startsWith("+") ? "up" : p.startsWith("-") ? "down" : "flat");
// "—" when the previous period had nothing to compare with (a change from zero is not a percentage).
const vs = (p: string | null, what: string) => ({ text: `${change(p)} vs ${what}`, direction: direction(p) }) as const;

function Headline() {
  const trpc = useTRPC();
  // The headline does not depend on the range picked below: always today, 7 and 30 days.
  const q = useQuery(trpc.analytics.overview.queryOptions({ preset: "today" }));
  return (
    <Loaded query={q} what="revenue">
      {(o) => (
        <div className="mt-4 grid gap-3 sm:grid-cols-3" data-testid="headline">
          <Kpi
            testId="headline-today"
            label="Net revenue today"
            value={usd(o.headline.today.netUsd)}
            exact={o.headline.today.netUsd}
            change={vs(o.headline.today.changePercent, "yesterday, same time")}
          />
          <Kpi
            testId="headline-7d"
            label="Net revenue, last 7 days"
            value={usd(o.headline.last7Days.netUsd)}
            exact={o.headline.last7Days.netUsd}
            change={vs(o.headline.last7Days.changePercent, "the 7 days before")}
          />
          <Kpi
            testId="headline-30d"
            label="Net revenue, last 30 days"
            value={usd(o.headline.last30Days.netUsd)}
            exact={o.headline.last30Days.netUsd}
            change={vs(o.headline.last30Days.changePercent, "the 30 days before")}
          />
        </div>
      )}
    </Loaded>
  );
}

export function Overview() {
  const trpc = useTRPC();
  const { params } = useSearchState();
  const range = rangeFrom(params);
  const q = useQuery(trpc.analytics.overview.queryOptions(range));
  return (
    <>
      <PageHeader title="Overview">
        Net revenue is what the ledger holds: charges minus refunds, in USD. Times are UTC; a range that ends today is compared with the previous period up to
        the same time of day.
      </PageHeader>
      <Headline />
      <div className="mt-8 flex flex-wrap items-center justify-between gap-3">
        <h2 className="text-lg font-medium" data-testid="range-title">
          {q.data ? describeRange(q.data.range) : "\u00a0"}
        </h2>
        <RangePicker />
      </div>
      <Loaded query={q} what="the overview">
        {(o) => (
          <>
            <div className="mt-3 grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
              <Kpi
                testId="kpi-net-revenue"
                label="Net revenue"
                value={usd(o.totals.netUsd)}
                exact={o.totals.netUsd}
                change={vs(o.totals.changePercent, "the previous period")}
                note={`${usd(o.totals.chargedUsd)} charged, ${usd(o.totals.refundedUsd)} refunded`}
              />
              <Kpi
                testId="kpi-paid-calls"
                label="Paid calls"
                value={count(o.totals.paidCalls)}
                change={vs(o.totals.paidCallsChangePercent, "the previous period")}
                note={o.totals.creditCalls > 0 ? `${count(o.totals.creditCalls)} on prepaid credit (${usd(o.totals.drawnUsd)} drawn)` : undefined}
              />
              <Kpi
                testId="kpi-wallets"
                label="Paying wallets"
                value={count(o.totals.wallets)}
                note={
                  o.totals.payerKinds.includes("credential")
                    ? `${count(o.totals.credentials)} agent credentials drew on prepaid credit`
                    : "Wallet rails (x402, MPP) record the paying wallet; credits will record the agent credential."
                }
              />
              <Kpi testId="kpi-refunds" label="Refunds" value={count(o.totals.refunds)} note={`${usd(o.totals.refundedUsd)} returned`} />
            </div>

            <Section title={o.range.bucket === "hour" ? "Net revenue per hour (UTC)" : "Net revenue per day (UTC)"} testId="section-revenue">
              {o.totals.paidCalls === 0 && o.totals.refunds === 0 ? (
                <Empty testId="revenue-empty">No paid calls in this range. Paid calls appear here as soon as they settle.</Empty>
              ) : (
                <>
                  <RevenueChart series={o.series} bucket={o.range.bucket} />
                  <details className="mt-2 text-sm">
                    <summary className="cursor-pointer text-indigo-700">Show as a table</summary>
                    <TableScroll>
                      <table className={`${TABLE_CLASS} mt-2`} data-testid="revenue-table">
                        <thead className="text-slate-500">
                          <tr>
                            <th>{o.range.bucket === "hour" ? "Hour (UTC)" : "Day (UTC)"}</th>
                            <th className="text-right">Paid calls</th>
                            <th className="text-right">Charged</th>
                            <th className="text-right">Refunded</th>
                            <th className="text-right">Net</th>
                          </tr>
                        </thead>
                        <tbody>
                          {o.series.map((s) => (
                            <tr key={s.bucket} className="border-t border-slate-100" data-testid={`revenue-row-${s.bucket}`}>
                              <td className="py-1 font-mono text-xs">
                                {o.range.bucket === "hour" ? `${s.bucket.slice(0, 10)} ${s.bucket.slice(11)}:00` : s.bucket}
                              </td>
                              <td className="text-right tabular-nums">{count(s.calls)}</td>
                              <td className="text-right tabular-nums">{usd(s.chargedUsd)}</td>
                              <td className="text-right tabular-nums">{usd(s.refundedUsd)}</td>
                              <td className="text-right tabular-nums" data-testid="revenue-net" data-value={s.netUsd}>
                                {usd(s.netUsd)}
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

            <Section
              title="Calls per operation"
              testId="section-operations"
              actions={
                <Link href="/console/margin" className="text-sm text-indigo-700 hover:underline">
                  Margin per operation →
                </Link>
              }
            >
              {o.byOperation.length === 0 ? (
                <Empty testId="operations-empty">No paid calls in this range.</Empty>
              ) : (
                <div className="grid gap-4 lg:grid-cols-2">
                  <CallsByOperationChart rows={o.byOperation} />
                  <TableScroll>
                    <table className={TABLE_CLASS} data-testid="operations-table">
                      <thead className="text-slate-500">
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
                            <td className="py-1.5 font-mono">{r.operation}</td>
                            <td className="text-right tabular-nums">{count(r.calls)}</td>
                            <td className="text-right tabular-nums">{count(r.refunds)}</td>
                            <td className="text-right tabular-nums" data-value={r.netUsd}>
                              {usd(r.netUsd)}
                            </td>
                          </tr>
                        ))}
                      </tbody>
                    </table>
                  </TableScroll>
                </div>
              )}
            </Section>
            <p className="mt-4 text-sm text-slate-600">
              Where agents drop off between the 402 and the paid call:{" "}
              <Link className="text-indigo-700 hover:underline" href={`/console/funnel${params.toString() ? `?${params.toString()}` : ""}`}>
                the 402 funnel
              </Link>
              .
            </p>
          </>
        )}
      </Loaded>
    </>
  );
}
