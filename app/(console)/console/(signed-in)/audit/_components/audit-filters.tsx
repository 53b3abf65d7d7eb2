"use client";

import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "../../../providers";
import { BUTTON_SECONDARY, INPUT } from "../../../_components/section";
import { useSearchField, useSearchState } from "../../../_components/use-search-state";

export function AuditFilters() {
  const trpc = useTRPC();
  const { params, set } = useSearchState();
  const [action, setAction] = useSearchField("action");
  const [target, setTarget] = useSearchField("target");
  const [actor, setActor] = useSearchField("actor");
  const [from, setFrom] = useSearchField("from");
  const [to, setTo] = useSearchField("to");
  const options = useQuery(trpc.audit.filterOptions.queryOptions());
  const targets = [...new Map((options.data?.actions ?? []).map((a) => [a.target, a.targetLabel])).entries()];
  return (
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
          {targets.map(([t, label]) => (
            <option key={t} value={t}>
              {label}
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
  );
}
