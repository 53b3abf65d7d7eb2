"use client";

import { useInfiniteQuery } from "@tanstack/react-query";
import { ShortId } from "@/app/_components/short-id";
import { useTRPC } from "../../../providers";
import { utcCell } from "../../../_components/format";
import { Empty, Loaded, PageHeader, Section, STACKED_TABLE_CLASS, TableScroll, ShowOlder } from "../../../_components/section";
import { useSearchState } from "../../../_components/use-search-state";
import { AuditFilters } from "./audit-filters";
import { auditInput } from "./audit-input";

/** What a change was made to, by name (a payment by its id, linked); the kind of thing and its id on hover. */
function Target({ type, id, name }: { type: string; id: string; name: string }) {
  if (type === "payment") return <ShortId value={id} what="payment id" href={`/console/payments/${encodeURIComponent(id)}`} testId="audit-payment" />;
  return (
    <span className="break-words" title={`${type.replaceAll("_", " ")} ${id}`}>
      {name}
    </span>
  );
}

/** A value as the log shows it, in words; the stored value on hover when it reads otherwise (a state, a role, an amount). */
function Value({ text, raw, format }: { text: string; raw: string | undefined; format: "text" | "payment_state" }) {
  if (raw === undefined || raw === text) return <>{text}</>;
  return (
    <span title={raw} data-state={format === "payment_state" ? raw : undefined}>
      {text}
    </span>
  );
}

export function AuditLog() {
  const trpc = useTRPC();
  const { params } = useSearchState();
  const q = useInfiniteQuery(trpc.audit.list.infiniteQueryOptions(auditInput(params), { getNextPageParam: (last) => last.nextCursor }));
  const rows = q.data?.pages.flatMap((p) => p.entries) ?? [];
  return (
    <>
      <PageHeader title="Audit log">
        Every change made in the console, written in the same transaction as the change: who made it, when, and each field before and after. Read-only: nothing
        here can be edited or deleted.
      </PageHeader>
      <AuditFilters />
      <Section title="Changes" testId="section-audit">
        <Loaded query={q} what="the audit log">
          {() =>
            rows.length === 0 ? (
              <Empty testId="audit-empty">No change matches. Prices, plans, meters, refunds, identity providers and settings are audited here.</Empty>
            ) : (
              <>
                <TableScroll label="Audited changes">
                  <table className={STACKED_TABLE_CLASS} data-testid="audit-table">
                    <thead className="text-slate-600">
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
                        const changes = a.fields.length ? a.fields : [{ field: "—", label: "—", before: "—", after: "—", format: "text" as const }];
                        const raw = new Map(a.changes.map((r) => [r.field, r]));
                        return changes.map((c, i) => (
                          <tr
                            key={`${a.id}-${c.field}`}
                            className={`${i === 0 ? "border-t border-slate-200" : ""} align-top`}
                            data-testid={i === 0 ? `audit-row-${a.id}` : undefined}
                            data-action={a.action}
                          >
                            {i === 0 && (
                              <>
                                <td rowSpan={changes.length} className="py-1.5 font-mono text-xs whitespace-nowrap" data-label="When (UTC)">
                                  {utcCell(a.at)}
                                </td>
                                <td rowSpan={changes.length} className="break-all" data-label="Who">
                                  {a.actor ?? "system"}
                                </td>
                                <td rowSpan={changes.length} data-label="Change" title={a.action}>
                                  {a.label}
                                </td>
                                <td rowSpan={changes.length} data-label="Of">
                                  <Target type={a.targetType} id={a.targetId} name={a.targetName} />
                                </td>
                              </>
                            )}
                            <td className="py-1.5 text-xs" data-label="Field" title={c.field}>
                              {c.label}
                            </td>
                            <td className="text-xs break-all" data-testid="audit-before" data-label="Before">
                              <Value text={c.before} raw={raw.get(c.field)?.before} format={c.format} />
                            </td>
                            <td className="text-xs break-all" data-testid="audit-after" data-label="After">
                              <Value text={c.after} raw={raw.get(c.field)?.after} format={c.format} />
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
