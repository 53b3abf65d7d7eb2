"use client";

import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "../../../providers";
import { FunnelChart } from "../../../_components/charts";
import { count } from "../../../_components/format";
import { RangePicker, describeRange } from "../../../_components/range-picker";
import { Empty, INPUT, Loaded, PageHeader, Section, TABLE_CLASS, TableScroll } from "../../../_components/section";
import { rangeFrom, useSearchField, useSearchState } from "../../../_components/use-search-state";
import type { FunnelCounts } from "@/server/analytics/get-funnel";

// The server's shape, type only (erased from the browser bundle).
type Steps = FunnelCounts;

const STEP_NAMES: Record<string, string> = { proof: "proof refused", serve: "not served", settle: "settlement failed" };

/** A share in percent with one decimal, from counts (display only). */
const share = (part: number, whole: number) => (whole === 0 ? "—" : `${((part / whole) * 100).toFixed(1)}%`);

function StepCard({
  testId,
  label,
  value,
  drop,
  of,
}: {
  testId: string;
  label: string;
  value: number;
  drop?: { label: string; value: number }[];
  of?: number;
}) {
  return (
    <li className="rounded-lg border border-slate-200 bg-white p-3 shadow-sm" data-testid={`funnel-step-${testId}`}>
      <p className="text-sm text-slate-500">{label}</p>
      <p className="text-2xl font-semibold tabular-nums" data-testid={`funnel-${testId}`} data-value={value}>
        {count(value)}
      </p>
      {of !== undefined && of > 0 && <p className="text-xs text-slate-500">{share(value, of)} of challenges</p>}
      {drop?.map((d) =>
        d.value ? (
          <p key={d.label} className="mt-1 text-xs text-red-700">
            − {count(d.value)} {d.label}
          </p>
        ) : null,
      )}
    </li>
  );
}

export function Funnel() {
  const trpc = useTRPC();
  const { params } = useSearchState();
  const [operation, setOperation] = useSearchField("operation");
  const [rail, setRail] = useSearchField("rail");
  const input = { ...rangeFrom(params, "7d"), operation: params.get("operation") || null, rail: params.get("rail") || null };
  const q = useQuery(trpc.analytics.funnel.queryOptions(input));
  return (
    <>
      <PageHeader title="402 funnel">
        Where agents drop off between the 402 and the paid call. A 402 offers every rail at once, so challenges have no rail; the steps after it do. Proofs that
        answer no challenge of ours (x402 v1 clients) and replays count as proofs too, so each drop is what happened, not a difference of two steps.
      </PageHeader>
      <div className="mt-4 flex flex-wrap items-end gap-3">
        <RangePicker fallback="7d" />
        <label className="grid gap-1 text-sm">
          <span className="text-slate-600">Operation</span>
          <select className={INPUT} value={operation} onChange={(e) => setOperation(e.target.value)} data-testid="funnel-operation">
            <option value="">All operations</option>
            {(q.data?.operations ?? []).map((o) => (
              <option key={o}>{o}</option>
            ))}
          </select>
        </label>
        <label className="grid gap-1 text-sm">
          <span className="text-slate-600">Rail</span>
          <select className={INPUT} value={rail} onChange={(e) => setRail(e.target.value)} data-testid="funnel-rail">
            <option value="">All rails</option>
            {(q.data?.rails ?? []).map((r) => (
              <option key={r}>{r}</option>
            ))}
          </select>
        </label>
      </div>
      <Loaded query={q} what="the funnel">
        {(f) => {
          const s: Steps = f.steps;
          return (
            <>
              <p className="mt-4 text-sm text-slate-600" data-testid="funnel-range">
                {describeRange(f.range)}
                {f.filter.operation ? ` · ${f.filter.operation}` : ""}
                {f.filter.rail ? ` · ${f.filter.rail}` : ""} ·{" "}
                {f.conversionPercent === null ? "no challenges" : `${f.conversionPercent}% of challenges settled`}
              </p>
              <ol className="mt-3 grid grid-cols-2 gap-3 lg:grid-cols-5" data-testid="funnel-steps" aria-label="Funnel steps">
                <StepCard testId="issued" label="Challenges issued" value={s.issued} drop={[{ label: "never paid", value: s.neverPaid }]} />
                <StepCard testId="proofs" label="Proofs received" value={s.proofs} of={s.issued} drop={[{ label: "refused", value: s.refused }]} />
                <StepCard
                  testId="verified"
                  label="Verified"
                  value={s.verified}
                  of={s.issued}
                  drop={[
                    { label: "released, not served", value: s.released },
                    { label: "being served", value: s.beingServed },
                  ]}
                />
                <StepCard
                  testId="served"
                  label="Served"
                  value={s.served}
                  of={s.issued}
                  drop={[
                    { label: "settlement failed", value: s.failed },
                    { label: "settling", value: s.settling },
                  ]}
                />
                <StepCard testId="settled" label="Settled" value={s.settled} of={s.issued} />
              </ol>
              {s.issued + s.proofs === 0 ? (
                <div className="mt-6">
                  <Empty testId="funnel-empty">No 402 challenges or payment proofs in this range.</Empty>
                </div>
              ) : (
                <Section title="Steps" testId="section-funnel-chart">
                  <FunnelChart
                    steps={[
                      { label: "Issued", count: s.issued },
                      { label: "Proofs", count: s.proofs },
                      { label: "Verified", count: s.verified },
                      { label: "Served", count: s.served },
                      { label: "Settled", count: s.settled },
                    ]}
                  />
                </Section>
              )}
              <Section title="Top reasons for a drop" testId="section-funnel-reasons">
                {f.reasons.length === 0 ? (
                  <Empty testId="funnel-reasons-empty">No refused proofs, released calls or failed settlements in this range.</Empty>
                ) : (
                  <TableScroll>
                    <table className={TABLE_CLASS} data-testid="funnel-reasons">
                      <thead className="text-slate-500">
                        <tr>
                          <th>Code</th>
                          <th>Step</th>
                          <th className="text-right">Count</th>
                        </tr>
                      </thead>
                      <tbody>
                        {f.reasons.map((r) => (
                          <tr key={`${r.step}-${r.code}`} className="border-t border-slate-100" data-testid={`funnel-reason-${r.code}`}>
                            <td className="py-1.5 font-mono">{r.code}</td>
                            <td>{STEP_NAMES[r.step]}</td>
                            <td className="text-right tabular-nums" data-testid="funnel-reason-count">
                              {count(r.count)}
                            </td>
                          </tr>
                        ))}
                      </tbody>
                    </table>
                  </TableScroll>
                )}
              </Section>
              <Section title="Per operation" testId="section-funnel-operations">
                {f.byOperation.length === 0 ? (
                  <Empty testId="funnel-operations-empty">Nothing in this range.</Empty>
                ) : (
                  <TableScroll>
                    <table className={TABLE_CLASS} data-testid="funnel-by-operation">
                      <thead className="text-slate-500">
                        <tr>
                          <th>Operation</th>
                          <th className="text-right">Issued</th>
                          <th className="text-right">Never paid</th>
                          <th className="text-right">Proofs</th>
                          <th className="text-right">Refused</th>
                          <th className="text-right">Verified</th>
                          <th className="text-right">Served</th>
                          <th className="text-right">Settled</th>
                          <th className="text-right">Settled / issued</th>
                        </tr>
                      </thead>
                      <tbody>
                        {f.byOperation.map((o) => (
                          <tr key={o.operation} className="border-t border-slate-100 tabular-nums" data-testid={`funnel-operation-${o.operation}`}>
                            <td className="py-1.5 font-mono">{o.operation}</td>
                            <td className="text-right">{count(o.issued)}</td>
                            <td className="text-right">{count(o.neverPaid)}</td>
                            <td className="text-right">{count(o.proofs)}</td>
                            <td className="text-right">{count(o.refused)}</td>
                            <td className="text-right">{count(o.verified)}</td>
                            <td className="text-right">{count(o.served)}</td>
                            <td className="text-right">{count(o.settled)}</td>
                            <td className="text-right">{o.conversionPercent === null ? "—" : `${o.conversionPercent}%`}</td>
                          </tr>
                        ))}
                      </tbody>
                    </table>
                  </TableScroll>
                )}
              </Section>
              <Section title="Per rail" testId="section-funnel-rails">
                <TableScroll>
                  <table className={TABLE_CLASS} data-testid="funnel-by-rail">
                    <thead className="text-slate-500">
                      <tr>
                        <th>Rail</th>
                        <th className="text-right">Proofs</th>
                        <th className="text-right">Refused</th>
                        <th className="text-right">Verified</th>
                        <th className="text-right">Released</th>
                        <th className="text-right">Served</th>
                        <th className="text-right">Failed</th>
                        <th className="text-right">Settled</th>
                      </tr>
                    </thead>
                    <tbody>
                      {f.byRail.map((r) => (
                        <tr key={r.rail ?? "several"} className="border-t border-slate-100 tabular-nums" data-testid={`funnel-rail-${r.rail ?? "several"}`}>
                          <td className="py-1.5">{r.rail ?? "two rails at once"}</td>
                          <td className="text-right">{count(r.proofs)}</td>
                          <td className="text-right">{count(r.refused)}</td>
                          <td className="text-right">{count(r.verified)}</td>
                          <td className="text-right">{count(r.released)}</td>
                          <td className="text-right">{count(r.served)}</td>
                          <td className="text-right">{count(r.failed)}</td>
                          <td className="text-right">{count(r.settled)}</td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </TableScroll>
              </Section>
            </>
          );
        }}
      </Loaded>
    </>
  );
}
