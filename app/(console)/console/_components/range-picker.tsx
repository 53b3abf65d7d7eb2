"use client";

import { useState } from "react";
import { consoleDayRange, firstIssue } from "@/server/contracts/console";
import { BUTTON_SECONDARY, INPUT } from "./section";
import { rangeFrom, useSearchState } from "./use-search-state";

const PRESETS = [
  { preset: "today", label: "Today" },
  { preset: "mtd", label: "Month to date" },
  { preset: "7d", label: "7 days" },
  { preset: "30d", label: "30 days" },
  { preset: "90d", label: "90 days" },
] as const;

/** Today, month to date, the last 7, 30 or 90 UTC days, or a custom range of days; kept in the URL (range=, or from= and to=). */
export function RangePicker({ fallback = "30d" }: { fallback?: "today" | "mtd" | "7d" | "30d" | "90d" }) {
  const { params, set } = useSearchState();
  const range = rangeFrom(params, fallback);
  const [from, setFrom] = useState(range.from ?? "");
  const [to, setTo] = useState(range.to ?? "");
  // Checked as it is picked, by the rule the server checks a range with; both days are needed before it says anything.
  const problem = from && to ? firstIssue(consoleDayRange.safeParse({ from, to })) : null;
  return (
    <div className="flex flex-wrap items-center gap-2" data-testid="range-picker">
      <div role="group" aria-label="Date range (UTC days)" className="inline-flex flex-wrap overflow-hidden rounded border border-slate-300">
        {PRESETS.map((p) => {
          const active = range.preset === p.preset;
          return (
            <button
              key={p.preset}
              type="button"
              aria-pressed={active}
              data-testid={`range-${p.preset}`}
              className={`min-h-8 border-r border-slate-300 px-3 py-1.5 text-sm last:border-r-0 ${active ? "bg-indigo-600 text-white" : "bg-white text-slate-700 hover:bg-slate-50"}`}
              onClick={() => set({ range: p.preset === fallback ? null : p.preset, from: null, to: null })}
            >
              {p.label}
            </button>
          );
        })}
      </div>
      <form
        className="flex flex-wrap items-center gap-1 text-sm"
        onSubmit={(e) => {
          e.preventDefault();
          if (from && to && !problem) set({ range: null, from, to });
        }}
      >
        <label className="sr-only" htmlFor="range-from">
          From (UTC day)
        </label>
        <input
          id="range-from"
          type="date"
          className={INPUT}
          value={from}
          max={to || undefined}
          aria-invalid={problem ? true : undefined}
          onChange={(e) => setFrom(e.target.value)}
          data-testid="range-from"
        />
        <span aria-hidden className="text-slate-500">
          –
        </span>
        <label className="sr-only" htmlFor="range-to">
          To (UTC day)
        </label>
        <input id="range-to" type="date" className={INPUT} value={to} min={from || undefined} onChange={(e) => setTo(e.target.value)} data-testid="range-to" />
        <button className={BUTTON_SECONDARY} disabled={!from || !to || Boolean(problem)} data-testid="range-apply">
          Apply
        </button>
        {problem && (
          <span role="alert" className="basis-full text-sm text-red-700" data-testid="range-error">
            {problem}
          </span>
        )}
      </form>
    </div>
  );
}

/** The range as words, for headings: "7 days (2025-05-27 to 2025-06-02, UTC)". */
export function describeRange(r: { preset: string; from: string; to: string; days: number }): string {
  const span = r.from === r.to ? `${r.from}, UTC` : `${r.from} to ${r.to}, UTC`;
  if (r.preset === "today") return `Today (${span})`;
  if (r.preset === "mtd") return `Month to date (${span})`;
  if (r.preset === "custom") return r.days === 1 ? `${r.from} (UTC)` : `${r.days} days (${span})`;
  return `Last ${r.days} days (${span})`;
}
