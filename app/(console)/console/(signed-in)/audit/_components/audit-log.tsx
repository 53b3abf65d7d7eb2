"use client";

import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useTRPC } from "../../../providers";
import { utcCell } from "../../../_components/format";
import { BUTTON_SECONDARY, Empty, INPUT, Loaded, PageHeader, Section, TABLE_CLASS, TableScroll, ShowOlder } from "../../../_components/section";
import { useSearchField, useSearchState } from "../../../_components/use-search-state";

function Target({ type, id }: { type: string; id: string }) {
  if (type === "payment")
    return (
      <Link href={`/console/payments/${id}`} className="font-mono text-xs text-indigo-700 hover:underline">
        {id}
      </Link>
    );
  return (
    <span className="font-mono text-xs break-all">
      {type}:{id}
    </span>
  );
}

export function AuditLog() {
  const trpc = useTRPC();
  const { params, set } = useSearchState();
  const [action, setAction] = useSearchField("action");
  const [target, setTarget] = useSearchField("target");
  const [actor, setActor] = useSearchField("actor");
  const [from, setFrom] = useSearchField("from");
  const [to, setTo] = useSearchField("to");
  const input = {
    actions: params.get("action") ? [params.get("action")!] : undefined,
    actorId: params.get("actor") || undefined,
    targetType: params.get("target") || undefined,
    from: params.get("from") || undefined,
    to: params.get("to") || undefined,
  };
  const options = useQuery(trpc.audit.filterOptions.queryOptions());
  const q = useInfiniteQuery(trpc.audit.list.infiniteQueryOptions(input, { getNextPageParam: (last) => last.nextCursor }));
  const rows = q.data?.pages.flatMap((p) => p.entries) ?? [];
  const targets = [...new Set((options.data?.actions ?? []).map((a) => a.target))];
  return (
    <>
      <PageHeader title="Audit log">
        Every change made in the console, written in the same transaction as the change: who made it, when, and each field before and after. Read-only: nothing
        here can be edited or deleted.
      </PageHeader>
      <form
        className="mt-4 flex flex-wrap items-end gap-3 rounded-lg border border-slate-200 bg-white p-3 text-sm"
        aria-label="Filter the audit log"
        data-testid="audit-filters"
      >
        <label className="grid gap-1">
          <span className="text-slate-600">Change</span>
          <select className={INPUT} value={action} onChange={(e) => setAction(e.target.value)} data-testid="audit-filter-action">
            <option value="">All changes</option>
            {(options.data?.actions ?? []).map((a) => (
              <option key={a.action} value={a.action}>
                {a.label}
              </option>
            ))}
          </select>
        </label>
        <label className="grid gap-1">
          <span className="text-slate-600">Of</span>
          <select className={INPUT} value={target} onChange={(e) => setTarget(e.target.value)} data-testid="audit-filter-target">
            <option value="">Anything</option>
            {targets.map((t) => (
              <option key={t} value={t}>
                {t.replaceAll("_", " ")}
              </option>
            ))}
          </select>
        </label>
        <label className="grid gap-1">
          <span className="text-slate-600">By</span>
          <select className={INPUT} value={actor} onChange={(e) => setActor(e.target.value)} data-testid="audit-filter-actor">
            <option value="">Anyone</option>
            {(options.data?.actors ?? []).map((a) => (
              <option key={a.id} value={a.id}>
                {a.email}
              </option>
            ))}
          </select>
        </label>
        <label className="grid gap-1">
          <span className="text-slate-600">From (UTC)</span>
          <input type="date" className={INPUT} value={from} onChange={(e) => setFrom(e.target.value)} data-testid="audit-filter-from" />
        </label>
        <label className="grid gap-1">
          <span className="text-slate-600">To (UTC)</span>
          <input type="date" className={INPUT} value={to} onChange={(e) => setTo(e.target.value)} data-testid="audit-filter-to" />
        </label>
        {["action", "target", "actor", "from", "to"].some((k) => params.get(k)) && (
          <button type="button" className={BUTTON_SECONDARY} onClick={() => set({ action: null, target: null, actor: null, from: null, to: null })}>
            Clear filters
          </button>
        )}
      </form>
      <Section title="Changes" testId="section-audit">
        <Loaded query={q} what="the audit log">
          {() =>
            rows.length === 0 ? (
              <Empty testId="audit-empty">No change matches. Price changes, recorded refunds, identity providers and settings are audited here.</Empty>
            ) : (
              <>
                <TableScroll>
                  <table className={TABLE_CLASS} data-testid="audit-table">
                    <thead className="text-slate-500">
                      <tr>
                        <th className="py-1">When (UTC)</th>
                        <th>Who</th>
                        <th>Change</th>
                        <th>Of</th>
                        <th>Field</th>
                        <th>Before</th>
                        <th>After</th>
                      </tr>
                    </thead>
                    <tbody>
                      {rows.flatMap((a) => {
                        const changes = a.changes.length ? a.changes : [{ field: "—", before: "—", after: "—" }];
                        return changes.map((c, i) => (
                          <tr
                            key={`${a.id}-${c.field}`}
                            className={`${i === 0 ? "border-t border-slate-200" : ""} align-top`}
                            data-testid={i === 0 ? `audit-row-${a.id}` : undefined}
                            data-action={a.action}
                          >
                            {i === 0 && (
                              <>
                                <td rowSpan={changes.length} className="py-1.5 font-mono text-xs whitespace-nowrap">
                                  {utcCell(a.at)}
                                </td>
                                <td rowSpan={changes.length} className="break-all">
                                  {a.actor ?? "system"}
                                </td>
                                <td rowSpan={changes.length}>
                                  {a.label} <span className="block font-mono text-xs text-slate-500">{a.action}</span>
                                </td>
                                <td rowSpan={changes.length}>
                                  <Target type={a.targetType} id={a.targetId} />
                                </td>
                              </>
                            )}
                            <td className="py-1.5 font-mono text-xs">{c.field}</td>
                            <td className="font-mono text-xs break-all" data-testid="audit-before">
                              {c.before}
                            </td>
                            <td className="font-mono text-xs break-all" data-testid="audit-after">
                              {c.after}
                            </td>
                          </tr>
                        ));
                      })}
                    </tbody>
                  </table>
                </TableScroll>
                <ShowOlder query={q} label="Show older changes" />
              </>
            )
          }
        </Loaded>
      </Section>
    </>
  );
}
