"use client";

import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "../../../providers";
import { STATE_WORDS, STATES } from "@/server/contracts/payment-words";
import { railLabel } from "../../../_components/format";
import { useOperationTitles } from "../../../_components/operation-name";
import { BUTTON_SECONDARY, INPUT } from "../../../_components/section";
import { useCommittedSearchField, useSearchField, useSearchState } from "../../../_components/use-search-state";
import { paymentFilterFrom } from "./payment-filter-input";

/** The filters in the URL (the CSV export reads the same). */
export function usePaymentFilter(opts: { usage?: boolean } = {}) {
  const { params } = useSearchState();
  return paymentFilterFrom(params, opts);
}

const KEYS = ["status", "rail", "operation", "transport", "payer", "q", "from", "to", "challenged", "sort"];

/** The search box, with a hint of what it finds; applied on Enter or when it loses focus. */
function SearchField({ usage }: { usage?: boolean }) {
  const [q, setQ, commit] = useCommittedSearchField("q");
  return (
    <label className="grid min-w-0 grow gap-1">
      <span className="text-slate-600">Search</span>
      <input
        type="search"
        className={`${INPUT} min-w-0 font-mono text-xs`}
        value={q}
        onChange={(e) => setQ(e.target.value)}
        onBlur={commit}
        onKeyDown={(e) => {
          if (e.key === "Enter") {
            e.preventDefault();
            commit();
          }
        }}
        placeholder={usage ? "agt_… or a person's email" : "pay_…, 0x… wallet or transaction, pi_…, agt_…, email"}
        data-testid="filter-q"
      />
    </label>
  );
}

export function PaymentFilters({ usage }: { usage?: boolean }) {
  const trpc = useTRPC();
  const { params, set } = useSearchState();
  const options = useQuery(trpc.payments.filterOptions.queryOptions());
  const opTitle = useOperationTitles();
  const [status, setStatus] = useSearchField("status");
  const [rail, setRail] = useSearchField("rail");
  const [operation, setOperation] = useSearchField("operation");
  const [transport, setTransport] = useSearchField("transport");
  const [from, setFrom] = useSearchField("from");
  const [to, setTo] = useSearchField("to");
  const [challenged, setChallenged] = useSearchField("challenged");
  const [payer, setPayer, commitPayer] = useCommittedSearchField("payer");
  const chosen = new Set<string>(status.split(",").filter(Boolean));
  const toggle = (s: string) => {
    const next = new Set(chosen);
    if (next.has(s)) next.delete(s);
    else next.add(s);
    setStatus(STATES.filter((x) => next.has(x)).join(","));
  };
  const usageRails = new Set(options.data?.usageRails ?? []);
  const rails = (options.data?.rails ?? []).filter((r) => (usage ? usageRails.has(r) : !usageRails.has(r)));
  const active = KEYS.some((k) => params.get(k));
  return (
    <form
      className="mt-4 grid gap-3 rounded-lg border border-slate-200 bg-white p-3 text-sm"
      aria-label={usage ? "Filter draws" : "Filter payments"}
      data-testid="payment-filters"
      onSubmit={(e) => {
        e.preventDefault();
        commitPayer();
      }}
    >
      {!usage && (
        <fieldset>
          <legend className="mb-1 text-slate-600">State</legend>
          <div className="flex flex-wrap gap-x-4 gap-y-1">
            {STATES.map((s) => (
              <label key={s} className="inline-flex min-h-6 items-center gap-1.5" title={`${s}: ${STATE_WORDS[s].meaning}`}>
                <input type="checkbox" checked={chosen.has(s)} onChange={() => toggle(s)} data-testid={`filter-status-${s}`} />
                {STATE_WORDS[s].filterLabel}
              </label>
            ))}
          </div>
        </fieldset>
      )}
      <div className="flex flex-wrap items-end gap-3">
        <SearchField usage={usage} />
        {!usage && rails.length > 1 && (
          <label className="grid gap-1">
            <span className="text-slate-600">Rail</span>
            <select className={INPUT} value={rail} onChange={(e) => setRail(e.target.value)} data-testid="filter-rail">
              <option value="">All rails</option>
              {rails.map((r) => (
                <option key={r} value={r}>
                  {railLabel(r)}
                </option>
              ))}
            </select>
          </label>
        )}
        <label className="grid max-w-full min-w-0 grid-cols-[minmax(0,1fr)] gap-1">
          <span className="text-slate-600">Operation</span>
          <select className={`${INPUT} w-72 max-w-full`} value={operation} onChange={(e) => setOperation(e.target.value)} data-testid="filter-operation">
            <option value="">All operations</option>
            {(options.data?.operations ?? []).map((o) => (
              <option key={o} value={o}>
                {opTitle(o).title}
              </option>
            ))}
          </select>
        </label>
        <label className="grid gap-1">
          <span className="text-slate-600">Called over</span>
          <select className={INPUT} value={transport} onChange={(e) => setTransport(e.target.value)} data-testid="filter-transport">
            <option value="">HTTP and MCP</option>
            <option value="http">HTTP API calls</option>
            <option value="mcp">MCP tool calls</option>
          </select>
        </label>
        {!usage && (
          <label className="grid min-w-0 gap-1">
            <span className="text-slate-600">Payer (exact)</span>
            <input
              className={`${INPUT} w-44 font-mono text-xs`}
              value={payer}
              onChange={(e) => setPayer(e.target.value)}
              onBlur={commitPayer}
              placeholder="0x…"
              data-testid="filter-payer"
            />
          </label>
        )}
        <label className="grid gap-1">
          <span className="text-slate-600">From (UTC)</span>
          <input type="date" className={INPUT} value={from} onChange={(e) => setFrom(e.target.value)} data-testid="filter-from" />
        </label>
        <label className="grid gap-1">
          <span className="text-slate-600">To (UTC)</span>
          <input type="date" className={INPUT} value={to} onChange={(e) => setTo(e.target.value)} data-testid="filter-to" />
        </label>
      </div>
      <div className="flex flex-wrap items-center gap-3">
        {!usage && (
          <label className="inline-flex min-h-6 items-center gap-2 text-slate-700">
            <input
              type="checkbox"
              data-testid="payments-include-challenged"
              checked={challenged === "1"}
              onChange={(e) => setChallenged(e.target.checked ? "1" : "")}
            />
            Show unpaid 402 challenges (no proof was sent; nothing was paid)
          </label>
        )}
        <button type="submit" className="sr-only">
          Apply filters
        </button>
        {active && (
          <button type="button" className={BUTTON_SECONDARY} data-testid="filter-clear" onClick={() => set(Object.fromEntries(KEYS.map((k) => [k, null])))}>
            Clear filters
          </button>
        )}
      </div>
    </form>
  );
}
