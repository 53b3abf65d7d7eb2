"use client";

import { useState, type FormEvent } from "react";
import { BUTTON, BUTTON_SECONDARY, INPUT } from "../../../_components/section";

export type PlanTerms = {
  name: string;
  description: string;
  minimumUsd: string;
  maximumUsd: string;
  cardMinimumUsd: string;
  creditValidityDays: number;
  meters: string[];
};

export const EMPTY_TERMS: PlanTerms = {
  name: "",
  description: "",
  minimumUsd: "5.00",
  maximumUsd: "100.00",
  cardMinimumUsd: "0.50",
  creditValidityDays: 365,
  meters: [],
};

function AmountField({ label, value, onChange, testId }: { label: string; value: string; onChange: (v: string) => void; testId: string }) {
  return (
    <label className="flex flex-col gap-1 text-sm">
      <span className="text-slate-600">{label}</span>
      <input className={`${INPUT} font-mono`} inputMode="decimal" value={value} onChange={(e) => onChange(e.target.value)} data-testid={testId} />
    </label>
  );
}

/** The terms of a credit plan: name, description, bounds, card minimum, validity and the meters its credit pays for. */
export function PlanForm({
  initial,
  meters,
  slug,
  submitLabel,
  pending,
  error,
  onSubmit,
  onCancel,
  testId,
}: {
  initial: PlanTerms;
  meters: { key: string; title: string }[];
  slug?: { value: string; onChange: (v: string) => void };
  submitLabel: string;
  pending: boolean;
  error: string | null;
  onSubmit: (terms: PlanTerms) => void;
  onCancel: () => void;
  testId: string;
}) {
  const [t, setT] = useState<PlanTerms>(initial);
  const set = <K extends keyof PlanTerms>(k: K, v: PlanTerms[K]) => setT((x) => ({ ...x, [k]: v }));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onSubmit(t);
  };
  const field = "flex flex-col gap-1 text-sm";
  // The form changes nothing itself: `onSubmit` gets the terms (to preview and confirm, or to create).
  return (
    <form onSubmit={submit} className="mt-3 grid gap-3 rounded border border-slate-200 bg-slate-50 p-3 text-left sm:grid-cols-2" data-testid={testId}>
      {slug && (
        <label className={field}>
          <span className="text-slate-600">Slug (in the purchase URL; kept for good)</span>
          <input className={`${INPUT} font-mono`} value={slug.value} onChange={(e) => slug.onChange(e.target.value)} required data-testid="plan-slug" />
        </label>
      )}
      <label className={field}>
        <span className="text-slate-600">Name</span>
        <input className={INPUT} value={t.name} onChange={(e) => set("name", e.target.value)} required data-testid="plan-name" />
      </label>
      <label className={`${field} sm:col-span-2`}>
        <span className="text-slate-600">Description</span>
        <input className={INPUT} value={t.description} onChange={(e) => set("description", e.target.value)} data-testid="plan-description" />
      </label>
      <AmountField label="Minimum purchase (USD)" value={t.minimumUsd} onChange={(v) => set("minimumUsd", v)} testId="plan-minimum" />
      <AmountField label="Maximum purchase (USD)" value={t.maximumUsd} onChange={(v) => set("maximumUsd", v)} testId="plan-maximum" />
      <AmountField label="Card minimum (USD, at least 0.50)" value={t.cardMinimumUsd} onChange={(v) => set("cardMinimumUsd", v)} testId="plan-card-minimum" />
      <label className={field}>
        <span className="text-slate-600">Credit lasts (days from each purchase)</span>
        <input
          className={`${INPUT} font-mono`}
          type="number"
          min={1}
          max={3650}
          value={t.creditValidityDays}
          onChange={(e) => set("creditValidityDays", Number(e.target.value))}
          data-testid="plan-validity"
        />
      </label>
      <fieldset className="sm:col-span-2">
        <legend className="text-sm text-slate-600">Meters its credit pays for</legend>
        <div className="mt-1 flex flex-wrap gap-x-4 gap-y-1">
          {meters.map((m) => (
            <label key={m.key} className="flex items-center gap-1 text-sm">
              <input
                type="checkbox"
                checked={t.meters.includes(m.key)}
                onChange={(e) => set("meters", e.target.checked ? [...t.meters, m.key] : t.meters.filter((k) => k !== m.key))}
                data-testid={`plan-meter-${m.key}`}
              />
              <span className="font-mono text-xs">{m.key}</span>
            </label>
          ))}
        </div>
      </fieldset>
      <div className="flex flex-wrap items-center gap-2 sm:col-span-2">
        <button className={BUTTON} disabled={pending} data-testid={`${testId}-submit`}>
          {pending ? "Saving" : submitLabel}
        </button>
        <button type="button" className={BUTTON_SECONDARY} onClick={onCancel}>
          Cancel
        </button>
        {error && (
          <span role="alert" className="text-sm text-red-700" data-testid={`${testId}-error`}>
            {error}
          </span>
        )}
      </div>
    </form>
  );
}
