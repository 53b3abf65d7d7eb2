"use client";

import { count } from "../../../_components/format";
import { OperationName } from "../../../_components/operation-name";
import { Empty, Section, STACKED_TABLE_CLASS, TableScroll } from "../../../_components/section";
import { useSort } from "../../../_components/sortable";
import type { Outputs } from "../../../_components/types";

type Funnel = Outputs["analytics"]["funnel"];

const STEP_NAMES: Record<string, string> = { proof: "before verification", serve: "not served", settle: "did not settle" };

/** Why calls dropped out, most first, each reason explained with what the payer can do. */
export function ReasonsTable({ f }: { f: Funnel }) {
  return (
    <Section title="Top reasons for a drop" testId="section-funnel-reasons">
      {f.reasons.length === 0 ? (
        <Empty testId="funnel-reasons-empty">No refused proofs, released calls or failed settlements in this range.</Empty>
      ) : (
        <TableScroll label="Top reasons for a drop">
          <table className={STACKED_TABLE_CLASS} data-testid="funnel-reasons">
            <thead className="text-slate-600">
              <tr>
                <th>Reason</th>
                <th>What the payer can do</th>
                <th>Step</th>
                <th className="text-right">Count</th>
              </tr>
            </thead>
            <tbody>
              {f.reasons.map((r) => {
                const e = f.explanations[`${r.step}:${r.code}`];
                return (
                  <tr key={`${r.step}-${r.code}`} className="border-t border-slate-100 align-top" data-testid={`funnel-reason-${r.code}`}>
                    <td className="py-1.5" data-label="Reason">
                      {e?.setBy === "person" && (
                        <span className="mr-1 rounded bg-amber-50 px-1.5 py-0.5 text-xs text-amber-900" data-testid="funnel-reason-person">
                          The buyer&apos;s own rule
                        </span>
                      )}
                      {e?.meaning ?? r.code} <code className="block text-xs text-slate-600">{r.code}</code>
                    </td>
                    <td data-label="The payer can">{e?.payerCanDo ?? "—"}</td>
                    <td data-label="Step">{STEP_NAMES[r.step]}</td>
                    <td className="text-right tabular-nums" data-testid="funnel-reason-count" data-label="Count">
                      {count(r.count)}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </TableScroll>
      )}
    </Section>
  );
}

type OpRow = Funnel["byOperation"][number];
const OP_COLUMNS = {
  operation: (o: OpRow) => o.operation,
  issued: (o: OpRow) => o.stages.issued,
  answered: (o: OpRow) => o.stages.answered,
  served: (o: OpRow) => o.stages.served,
  settled: (o: OpRow) => o.stages.settled,
  conversion: (o: OpRow) => (o.stages.conversionPercent === null ? null : Number(o.stages.conversionPercent)),
};

/** The stages per operation, sortable. */
export function ByOperationTable({ f }: { f: Funnel }) {
  const t = useSort(f.byOperation, OP_COLUMNS, { key: "issued", dir: "desc" });
  return (
    <Section title="Per operation" testId="section-funnel-operations">
      {f.byOperation.length === 0 ? (
        <Empty testId="funnel-operations-empty">Nothing in this range.</Empty>
      ) : (
        <TableScroll label="Funnel per operation">
          <table className={STACKED_TABLE_CLASS} data-testid="funnel-by-operation">
            <thead className="text-slate-600">
              <tr>
                {t.header("operation", "Operation")}
                {t.header("issued", "402s issued", "text-right")}
                {t.header("answered", "Answered", "text-right")}
                <th className="text-right">Refused proofs</th>
                {t.header("served", "Served", "text-right")}
                {t.header("settled", "Paid", "text-right")}
                {t.header("conversion", "402 to paid", "text-right")}
              </tr>
            </thead>
            <tbody>
              {t.rows.map((o) => (
                <tr key={o.operation} className="border-t border-slate-100 tabular-nums" data-testid={`funnel-operation-${o.operation}`}>
                  <td className="py-1.5" data-label="Operation">
                    <OperationName op={o.operation} />
                  </td>
                  <td className="text-right" data-label="402s issued">
                    {count(o.stages.issued)}
                  </td>
                  <td className="text-right" data-label="Answered">
                    {count(o.stages.answered)}
                  </td>
                  <td className="text-right" data-label="Refused proofs">
                    {count(o.refused)}
                  </td>
                  <td className="text-right" data-label="Served">
                    {count(o.stages.served)}
                  </td>
                  <td className="text-right" data-label="Paid">
                    {count(o.stages.settled)}
                  </td>
                  <td className="text-right" data-label="402 to paid">
                    {o.stages.conversionPercent === null ? "—" : `${o.stages.conversionPercent}%`}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
    </Section>
  );
}

/** What happened per rail (a 402 offers every rail at once, so 402s issued have no rail). */
export function ByRailTable({ f }: { f: Funnel }) {
  const cols = ["proofs", "refused", "verified", "released", "served", "failed", "settled"] as const;
  const labels = { proofs: "Proofs", refused: "Refused", verified: "Verified", released: "Released", served: "Served", failed: "Failed", settled: "Paid" };
  return (
    <Section title="Per rail" testId="section-funnel-rails">
      <TableScroll label="Funnel per rail">
        <table className={STACKED_TABLE_CLASS} data-testid="funnel-by-rail">
          <thead className="text-slate-600">
            <tr>
              <th>Rail</th>
              {cols.map((c) => (
                <th key={c} className="text-right">
                  {labels[c]}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {f.byRail.map((r) => (
              <tr key={r.rail ?? "several"} className="border-t border-slate-100 tabular-nums" data-testid={`funnel-rail-${r.rail ?? "several"}`}>
                <td className="py-1.5" data-label="Rail">
                  {r.rail ?? "two rails at once"}
                </td>
                {cols.map((c) => (
                  <td key={c} className="text-right" data-label={labels[c]}>
                    {count(r[c])}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
    </Section>
  );
}
