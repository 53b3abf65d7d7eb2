"use client";

import { useQuery } from "@tanstack/react-query";
import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "@/server/trpc/root";
import { useTRPC } from "../../../providers";
import { Loaded, PageHeader, Section, TABLE_CLASS, TableScroll } from "../../../_components/section";

type Coverage = inferRouterOutputs<AppRouter>["coverage"]["operations"]["operations"][number]["embedded"];

const KIND_LABEL = { embedded: "Offline (embedded data)", live: "Live (vendors' APIs)" } as const;

/** One kind's coverage: its sentence, and the items it holds with their first and last dates, when the list is fixed. */
function KindCoverage({ kind, coverage, running, op }: { kind: "embedded" | "live"; coverage: Coverage; running: boolean; op: string }) {
  return (
    <div className="mt-3" data-testid={`coverage-${op}-${kind}`}>
      <h3 className="text-sm font-medium">
        {KIND_LABEL[kind]}
        {running && <span className="ml-2 rounded bg-emerald-50 px-1.5 py-0.5 text-xs font-medium text-emerald-800">this deployment</span>}
      </h3>
      <p className="mt-1 text-sm break-words text-slate-700">{coverage?.summary ?? "Coverage could not be read (a data file is missing)."}</p>
      {coverage?.entities && coverage.entities.length > 0 && (
        <TableScroll label={`${op}: what the ${kind} data holds`}>
          <table className={`${TABLE_CLASS} mt-2`}>
            <thead className="text-slate-600">
              <tr>
                <th className="py-1">Item</th>
                <th>First</th>
                <th>Last</th>
              </tr>
            </thead>
            <tbody>
              {coverage.entities.map((e) => (
                <tr key={e.name} className="border-t border-slate-100" data-testid={`coverage-row-${op}-${kind}-${e.name}`}>
                  <td className="py-1 font-mono break-all">{e.name}</td>
                  <td className="font-mono whitespace-nowrap">{e.first_date ?? "-"}</td>
                  <td className="font-mono whitespace-nowrap">{e.last_date ?? "-"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
    </div>
  );
}

export function OperationsCoverage() {
  const trpc = useTRPC();
  const coverage = useQuery(trpc.coverage.operations.queryOptions());
  return (
    <>
      <PageHeader title="Data coverage">
        What each data operation holds, offline and live: the coverage its OpenAPI description, MCP tool and the catalog state before an agent pays, so nobody
        pays to learn that a series or a date is missing. It is the operations registry&apos;s, the same for every seller.
      </PageHeader>
      <Loaded query={coverage} what="the coverage">
        {(data) => (
          <>
            {data.operations.map((op) => (
              <Section key={op.key} title={op.summary} testId={`coverage-${op.key}`}>
                <p className="font-mono text-xs break-all text-slate-600">
                  {op.method} {op.path} · {op.key} · service {op.service}
                </p>
                <KindCoverage kind="embedded" coverage={op.embedded} running={data.running === "embedded"} op={op.key} />
                <KindCoverage kind="live" coverage={op.live} running={data.running === "live"} op={op.key} />
              </Section>
            ))}
          </>
        )}
      </Loaded>
    </>
  );
}
