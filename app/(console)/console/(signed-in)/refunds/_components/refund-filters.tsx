"use client";

import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "../../../providers";
import { railLabel } from "../../../_components/format";
import { BUTTON_SECONDARY, INPUT } from "../../../_components/section";
import { useSearchField, useSearchState } from "../../../_components/use-search-state";
import { REFUND_STATUS_WORDS, refundsExportHref, refundsInput } from "./refunds-input";

/** Status, method and days of the refund, held in the URL; the CSV link carries the same filter. */
export function RefundFilters() {
  const trpc = useTRPC();
  const { params, set } = useSearchState();
  const options = useQuery(trpc.payments.filterOptions.queryOptions());
  const [status, setStatus] = useSearchField("status");
  const [rail, setRail] = useSearchField("rail");
  const [from, setFrom] = useSearchField("from");
  const [to, setTo] = useSearchField("to");
  const rails = (options.data?.rails ?? []).filter((r) => !options.data?.usageRails.includes(r));
  return (
    <div className="mt-4 flex flex-wrap items-end gap-3 text-sm" data-testid="refund-filters">
      <label className="grid gap-1">
        <span className="text-slate-600">Status</span>
        <select className={INPUT} value={status} onChange={(e) => setStatus(e.target.value)} data-testid="refund-filter-status">
          <option value="">Any</option>
          {Object.entries(REFUND_STATUS_WORDS).map(([k, v]) => (
            <option key={k} value={k}>
              {v}
            </option>
          ))}
        </select>
      </label>
      <label className="grid gap-1">
        <span className="text-slate-600">Paid with</span>
        <select className={INPUT} value={rail} onChange={(e) => setRail(e.target.value)} data-testid="refund-filter-rail">
          <option value="">Any</option>
          {rails.map((r) => (
            <option key={r} value={r}>
              {railLabel(r)}
            </option>
          ))}
        </select>
      </label>
      <label className="grid gap-1">
        <span className="text-slate-600">From (UTC)</span>
        <input type="date" className={INPUT} value={from} max={to || undefined} onChange={(e) => setFrom(e.target.value)} data-testid="refund-filter-from" />
      </label>
      <label className="grid gap-1">
        <span className="text-slate-600">To (UTC)</span>
        <input type="date" className={INPUT} value={to} min={from || undefined} onChange={(e) => setTo(e.target.value)} data-testid="refund-filter-to" />
      </label>
      {[...params.keys()].some((k) => ["status", "rail", "from", "to"].includes(k)) && (
        <button type="button" className={BUTTON_SECONDARY} onClick={() => set({ status: null, rail: null, from: null, to: null })}>
          Clear filters
        </button>
      )}
      <a className={BUTTON_SECONDARY} href={refundsExportHref(refundsInput(params))} download data-testid="refunds-export">
        Export CSV
      </a>
    </div>
  );
}
