"use client";

import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "../../../providers";
import { BUTTON_SECONDARY, INPUT } from "../../../_components/section";
import { useSearchField, useSearchState } from "../../../_components/use-search-state";

/** The filters in the URL: ?status=a,b&rail=&operation=&payer=&from=&to=&challenged=1 (the CSV export reads the same). */
export function usePaymentFilter() {
  const { params } = useSearchState();
  const status = params.get("status")?.split(",").filter(Boolean);
  return {
    status: status?.length ? (status as ("challenged" | "verified" | "settled" | "consumed" | "released" | "refunded" | "failed")[]) : undefined,
    rail: params.get("rail") || undefined,
    operation: params.get("operation") || undefined,
    payer: params.get("payer") || undefined,
    from: params.get("from") || undefined,
    to: params.get("to") || undefined,
    includeChallenged: params.get("challenged") === "1",
  };
}

export function PaymentFilters() {
  const trpc = useTRPC();
  const { params, set } = useSearchState();
  const filter = usePaymentFilter();
  const options = useQuery(trpc.payments.filterOptions.queryOptions());
  const [status, setStatus] = useSearchField("status");
  const [rail, setRail] = useSearchField("rail");
  const [operation, setOperation] = useSearchField("operation");
  const [from, setFrom] = useSearchField("from");
  const [to, setTo] = useSearchField("to");
  const [challenged, setChallenged] = useSearchField("challenged");
  const [payer, setPayer] = useState(filter.payer ?? "");
  const states = options.data?.states ?? ["challenged", "verified", "settled", "consumed", "released", "refunded", "failed"];
  const chosen = new Set<string>(status.split(",").filter(Boolean));
  const toggle = (s: string) => {
    const next = new Set(chosen);
    if (next.has(s)) next.delete(s);
    else next.add(s);
    setStatus(states.filter((x) => next.has(x)).join(","));
  };
  const active = ["status", "rail", "operation", "payer", "from", "to", "challenged"].some((k) => params.get(k));
  return (
    <form
      className="mt-4 grid gap-3 rounded-lg border border-slate-200 bg-white p-3 text-sm md:grid-cols-[auto_auto_1fr] md:items-end"
      aria-label="Filter payments"
      data-testid="payment-filters"
      onSubmit={(e) => {
        e.preventDefault();
        set({ payer: payer.trim() || null });
      }}
    >
      <fieldset className="md:col-span-3">
        <legend className="mb-1 text-slate-600">State</legend>
        <div className="flex flex-wrap gap-x-3 gap-y-1">
          {states.map((s) => (
            <label key={s} className="inline-flex items-center gap-1">
              <input type="checkbox" checked={chosen.has(s)} onChange={() => toggle(s)} data-testid={`filter-status-${s}`} />
              {s}
            </label>
          ))}
        </div>
      </fieldset>
      <label className="grid gap-1">
        <span className="text-slate-600">Rail</span>
        <select className={INPUT} value={rail} onChange={(e) => setRail(e.target.value)} data-testid="filter-rail">
          <option value="">All rails</option>
          {(options.data?.rails ?? []).map((r) => (
            <option key={r} value={r}>
              {r}
            </option>
          ))}
        </select>
      </label>
      <label className="grid gap-1">
        <span className="text-slate-600">Operation</span>
        <select className={INPUT} value={operation} onChange={(e) => setOperation(e.target.value)} data-testid="filter-operation">
          <option value="">All operations</option>
          {(options.data?.operations ?? []).map((o) => (
            <option key={o} value={o}>
              {o}
            </option>
          ))}
        </select>
      </label>
      <div className="flex flex-wrap items-end gap-3">
        <label className="grid min-w-0 grow gap-1">
          <span className="text-slate-600">Payer (exact)</span>
          <input
            className={`${INPUT} font-mono text-xs`}
            value={payer}
            onChange={(e) => setPayer(e.target.value)}
            onBlur={() => set({ payer: payer.trim() || null })}
            placeholder="0x…"
            data-testid="filter-payer"
          />
        </label>
        <label className="grid gap-1">
          <span className="text-slate-600">From (UTC)</span>
          <input type="date" className={INPUT} value={from} onChange={(e) => setFrom(e.target.value)} data-testid="filter-from" />
        </label>
        <label className="grid gap-1">
          <span className="text-slate-600">To (UTC)</span>
          <input type="date" className={INPUT} value={to} onChange={(e) => setTo(e.target.value)} data-testid="filter-to" />
        </label>
      </div>
      <div className="flex flex-wrap items-center gap-3 md:col-span-3">
        <label className="inline-flex items-center gap-2 text-slate-600">
          <input
            type="checkbox"
            data-testid="payments-include-challenged"
            checked={challenged === "1"}
            onChange={(e) => setChallenged(e.target.checked ? "1" : "")}
          />
          Show unpaid 402 challenges (no proof was sent; nothing was paid)
        </label>
        <button type="submit" className="sr-only">
          Apply filters
        </button>
        {active && (
          <button
            type="button"
            className={BUTTON_SECONDARY}
            data-testid="filter-clear"
            onClick={() => {
              setPayer("");
              set({ status: null, rail: null, operation: null, payer: null, from: null, to: null, challenged: null });
            }}
          >
            Clear filters
          </button>
        )}
      </div>
    </form>
  );
}
