"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useTRPC } from "../../../providers";
import { count, railLabel, usd, utc } from "../../../_components/format";
import { OperationName } from "../../../_components/operation-name";
import { RangePicker, describeRange } from "../../../_components/range-picker";
import { Empty, LINK, Loaded, PageHeader, Section, STACKED_TABLE_CLASS, TableScroll } from "../../../_components/section";
import { rangeFrom, useSearchState } from "../../../_components/use-search-state";

export function Margin() {
  const trpc = useTRPC();
  const { params } = useSearchState();
  const q = useQuery(trpc.analytics.margin.queryOptions(rangeFrom(params)));
  return (
    <>
      <PageHeader title="Margin">
        What each operation earned (charges minus refunds) against what serving it cost where that is known: the gas the facilitator wallet paid for each
        settlement, read from its receipt, and provider fees (card processing, as the card processor reports them). Card payments pay no gas, so their margin
        needs no rate; gas is in ETH and shown in USD only at the rate you set in Settings. Nothing is estimated.
      </PageHeader>
      <div className="mt-4">
        <RangePicker />
      </div>
      <Loaded query={q} what="the margin">
        {(m) => (
          <>
            <p className="mt-4 text-sm" data-testid="margin-rate">
              {m.rate ? (
                <>
                  Gas in USD at <span className="font-medium">{usd(m.rate.ethUsd)} per ETH</span>, the rate you set{" "}
                  {m.rate.setAt ? `on ${utc(m.rate.setAt)}` : ""} (
                  <Link href="/console/settings" className={LINK}>
                    change
                  </Link>
                  ). Not a market price: update it when it matters.
                </>
              ) : (
                <span className="text-slate-600">
                  No ETH/USD rate is set, so gas is shown in ETH only and wallet payments (x402, MPP) have no USD margin; card payments do.{" "}
                  <Link href="/console/settings" className={LINK}>
                    Set a rate in Settings
                  </Link>
                  .
                </span>
              )}
            </p>
            <Section title={describeRange(m.range)} testId="section-margin">
              {m.rows.length === 0 ? (
                <Empty testId="margin-empty">No paid calls in this range.</Empty>
              ) : (
                <TableScroll label="Margin per operation and rail">
                  <table className={STACKED_TABLE_CLASS} data-testid="margin-table">
                    <thead className="text-slate-600">
                      <tr>
                        <th>Operation</th>
                        <th>Rail</th>
                        <th className="text-right">Paid calls</th>
                        <th className="text-right">Net revenue</th>
                        <th className="text-right">Per call</th>
                        <th className="text-right">Gas (ETH)</th>
                        <th className="text-right">Gas per call</th>
                        <th className="text-right">Gas (USD)</th>
                        <th className="text-right">Fees</th>
                        <th className="text-right">Margin</th>
                      </tr>
                    </thead>
                    <tbody className="tabular-nums">
                      {[...m.rows, { operation: "Total", rail: null, ...m.total }].map((r) => (
                        <tr
                          key={`${r.operation}-${r.rail ?? ""}`}
                          className={`border-t border-slate-100 ${r.operation === "Total" ? "font-medium" : ""}`}
                          data-testid={`margin-row-${r.operation}${r.rail ? `-${r.rail}` : ""}`}
                        >
                          <td className="py-1.5" data-label="Operation">
                            {r.operation === "Total" ? "Total" : <OperationName op={r.operation} />}
                          </td>
                          <td data-label={r.rail ? "Rail" : ""}>{r.rail ? railLabel(r.rail) : ""}</td>
                          <td className="text-right" data-label="Paid calls">
                            {count(r.calls)}
                          </td>
                          <td className="text-right" data-value={r.netUsd} data-label="Net revenue">
                            {usd(r.netUsd)}
                          </td>
                          <td className="text-right" data-label="Per call">
                            {usd(r.revenuePerCallUsd)}
                          </td>
                          <td className="text-right font-mono text-xs" data-testid="margin-gas-eth" data-label="Gas (ETH)">
                            {r.gasEth}
                            {!r.costKnownForAll && (
                              <span className="block text-amber-800" title="settlements whose gas is known">
                                {count(r.gasKnown)} of {count(r.calls)} known
                              </span>
                            )}
                          </td>
                          <td className="text-right font-mono text-xs" data-label="Gas per call">
                            {r.gasPerCallEth ?? "—"}
                          </td>
                          <td className="text-right" data-label="Gas (USD)">
                            {r.gasCalls === 0 ? "none" : r.gasUsd === null ? "no rate" : usd(r.gasUsd)}
                          </td>
                          <td className="text-right" data-label="Fees">
                            {r.feeKnown ? usd(r.feesUsd) : r.gasCalls === r.calls ? "none" : "not reported"}
                          </td>
                          <td className="text-right" data-testid="margin-value" data-label="Margin">
                            {r.marginUsd === null ? (
                              <span title="Gas was paid in ETH and no ETH/USD rate is set">not known</span>
                            ) : (
                              `${usd(r.marginUsd)}${r.marginPercent ? ` (${r.marginPercent}%)` : ""}`
                            )}
                          </td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </TableScroll>
              )}
            </Section>
          </>
        )}
      </Loaded>
    </>
  );
}
