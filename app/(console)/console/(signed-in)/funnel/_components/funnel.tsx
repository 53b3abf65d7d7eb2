"use client";

import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "../../../providers";
import { railLabel } from "../../../_components/format";
import { useOperationTitles } from "../../../_components/operation-name";
import { RangePicker, describeRange } from "../../../_components/range-picker";
import { INPUT, Loaded, PageHeader } from "../../../_components/section";
import { useSearchField, useSearchState } from "../../../_components/use-search-state";
import { funnelInput } from "./funnel-input";
import { FunnelStages } from "./funnel-stages";
import { ByTransportTable } from "./by-transport-table";
import { ByOperationTable, ByRailTable, ReasonsTable } from "./funnel-tables";
import { PersonControlsSection } from "../../../_components/person-controls";

export function Funnel() {
  const trpc = useTRPC();
  const { params } = useSearchState();
  const [operation, setOperation] = useSearchField("operation");
  const [rail, setRail] = useSearchField("rail");
  const q = useQuery(trpc.analytics.funnel.queryOptions(funnelInput(params)));
  const title = useOperationTitles();
  return (
    <>
      <PageHeader title="402 funnel">
        Where agents drop off between the 402 and the paid call. Each stage is a subset of the one before, counted over the 402s issued in the range; what each
        stage counts is written under the chart. A 402 offers every rail at once, so 402s have no rail; the stages after it do.
      </PageHeader>
      <div className="mt-4 flex flex-wrap items-end gap-3">
        <RangePicker fallback="7d" />
        <label className="grid max-w-full min-w-0 grid-cols-[minmax(0,1fr)] gap-1 text-sm">
          <span className="text-slate-600">Operation</span>
          <select className={`${INPUT} w-72 max-w-full`} value={operation} onChange={(e) => setOperation(e.target.value)} data-testid="funnel-operation">
            <option value="">All operations</option>
            {(q.data?.operations ?? []).map((o) => (
              <option key={o} value={o}>
                {title(o).title}
              </option>
            ))}
          </select>
        </label>
        <label className="grid gap-1 text-sm">
          <span className="text-slate-600">Rail</span>
          <select className={INPUT} value={rail} onChange={(e) => setRail(e.target.value)} data-testid="funnel-rail">
            <option value="">All rails</option>
            {(q.data?.rails ?? []).map((r) => (
              <option key={r} value={r}>
                {railLabel(r)}
              </option>
            ))}
          </select>
        </label>
      </div>
      <Loaded query={q} what="the funnel">
        {(f) => (
          <>
            <p className="mt-4 text-sm text-slate-700" data-testid="funnel-range">
              {describeRange(f.range)}
              {f.filter.operation ? ` · ${title(f.filter.operation).title}` : ""}
              {f.filter.rail ? ` · ${railLabel(f.filter.rail)}` : ""} ·{" "}
              {f.stages.conversionPercent === null ? "no 402s issued" : `${f.stages.conversionPercent}% of 402s paid`}
            </p>
            <FunnelStages f={f} />
            <ReasonsTable f={f} />
            <PersonControlsSection c={f.personControls} />
            <ByOperationTable f={f} />
            <ByRailTable f={f} />
            <ByTransportTable f={f} />
          </>
        )}
      </Loaded>
    </>
  );
}
