"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState, type FormEvent } from "react";
import { useTRPC } from "../../../providers";
import { MeterUsageChart } from "../../../_components/charts";
import { count, usd } from "../../../_components/format";
import { BUTTON, BUTTON_SECONDARY, Empty, INPUT, Loaded, PageHeader, Section, TABLE_CLASS, TableScroll } from "../../../_components/section";

type PlanTerms = {
  name: string;
  description: string;
  minimumUsd: string;
  maximumUsd: string;
  cardMinimumUsd: string;
  creditValidityDays: number;
  meters: string[];
};

const EMPTY_TERMS: PlanTerms = {
  name: "",
  description: "",
  minimumUsd: "5.00",
  maximumUsd: "100.00",
  cardMinimumUsd: "0.50",
  creditValidityDays: 365,
  meters: [],
};

function useInvalidateCatalog() {
  const trpc = useTRPC();
  const qc = useQueryClient();
  return () =>
    Promise.all([
      qc.invalidateQueries({ queryKey: trpc.catalog.plans.queryKey() }),
      qc.invalidateQueries({ queryKey: trpc.catalog.overview.queryKey() }),
      qc.invalidateQueries({ queryKey: trpc.audit.list.pathKey() }),
    ]);
}

function AmountField({ label, value, onChange, testId }: { label: string; value: string; onChange: (v: string) => void; testId: string }) {
  return (
    <label className="flex flex-col gap-1 text-sm">
      <span className="text-slate-600">{label}</span>
      <input className={`${INPUT} font-mono`} inputMode="decimal" value={value} onChange={(e) => onChange(e.target.value)} data-testid={testId} />
    </label>
  );
}

/** The terms of a credit plan: name, description, bounds, card minimum, validity and the meters its credit pays for. */
function PlanForm({
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
  return (
    <form onSubmit={submit} className="mt-3 grid gap-3 rounded border border-slate-200 bg-slate-50 p-3 sm:grid-cols-2" data-testid={testId}>
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

function CreatePlan({ meters }: { meters: { key: string; title: string }[] }) {
  const trpc = useTRPC();
  const invalidate = useInvalidateCatalog();
  const [open, setOpen] = useState(false);
  const [slug, setSlug] = useState("");
  const create = useMutation(
    trpc.catalog.createPlan.mutationOptions({
      onSuccess: async () => {
        await invalidate();
        setOpen(false);
        setSlug("");
      },
    }),
  );
  if (!open)
    return (
      <button className={BUTTON} onClick={() => setOpen(true)} data-testid="plan-create-open">
        New credit plan
      </button>
    );
  return (
    <PlanForm
      testId="plan-create"
      initial={EMPTY_TERMS}
      meters={meters}
      slug={{ value: slug, onChange: setSlug }}
      submitLabel="Create plan"
      pending={create.isPending}
      error={create.error?.message ?? null}
      onSubmit={(terms) => create.mutate({ ...terms, slug })}
      onCancel={() => setOpen(false)}
    />
  );
}

type PlanRow = {
  id: string;
  slug: string;
  name: string;
  description: string;
  kind: string;
  status: string;
  meters: string[];
  minimumUsd: string | null;
  maximumUsd: string | null;
  cardMinimumUsd: string | null;
  creditValidityDays: number;
  liveCreditUsd: string;
  purchasedUsd: string;
  holders: number;
};

function PlanActions({ plan, meters }: { plan: PlanRow; meters: { key: string; title: string }[] }) {
  const trpc = useTRPC();
  const invalidate = useInvalidateCatalog();
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const update = useMutation(trpc.catalog.updatePlan.mutationOptions({ onSuccess: async () => (await invalidate(), setEditing(false)) }));
  const retire = useMutation(trpc.catalog.retirePlan.mutationOptions({ onSuccess: async () => (await invalidate(), setConfirming(false)) }));
  if (plan.kind !== "credit" || plan.status !== "live") return null;
  return (
    <div className="flex flex-col items-start gap-1">
      <div className="flex gap-2">
        <button className="text-xs text-indigo-700 underline" onClick={() => setEditing((x) => !x)} data-testid={`plan-edit-${plan.slug}`}>
          Edit
        </button>
        <button className="text-xs text-red-700 underline" onClick={() => setConfirming(true)} data-testid={`plan-retire-${plan.slug}`}>
          Retire
        </button>
      </div>
      {confirming && (
        <div
          role="alertdialog"
          aria-label={`Retire ${plan.name}`}
          className="rounded border border-red-200 bg-red-50 p-2 text-xs"
          data-testid="plan-retire-confirm"
        >
          <p>
            Stop selling {plan.name}? It leaves the manifest and cannot be bought or topped up; the {usd(plan.liveCreditUsd)} of credit already bought keeps
            paying for calls until it expires.
          </p>
          <div className="mt-1 flex gap-2">
            <button className={BUTTON} disabled={retire.isPending} onClick={() => retire.mutate({ planId: plan.id })} data-testid="plan-retire-yes">
              {retire.isPending ? "Retiring" : "Retire plan"}
            </button>
            <button className={BUTTON_SECONDARY} onClick={() => setConfirming(false)}>
              Keep selling
            </button>
          </div>
          {retire.error && <p role="alert">{retire.error.message}</p>}
        </div>
      )}
      {editing && (
        <PlanForm
          testId="plan-edit"
          initial={{
            name: plan.name,
            description: plan.description,
            minimumUsd: plan.minimumUsd ?? "",
            maximumUsd: plan.maximumUsd ?? "",
            cardMinimumUsd: plan.cardMinimumUsd ?? "0.50",
            creditValidityDays: plan.creditValidityDays,
            meters: plan.meters,
          }}
          meters={meters}
          submitLabel="Save terms"
          pending={update.isPending}
          error={update.error?.message ?? null}
          onSubmit={(terms) => update.mutate({ ...terms, planId: plan.id })}
          onCancel={() => setEditing(false)}
        />
      )}
    </div>
  );
}

function IncludedUnitsEditor({ meter }: { meter: { id: string; key: string; title: string; includedUnits: number } }) {
  const trpc = useTRPC();
  const invalidate = useInvalidateCatalog();
  const [value, setValue] = useState(String(meter.includedUnits));
  const save = useMutation(trpc.catalog.updateMeter.mutationOptions({ onSuccess: () => invalidate() }));
  return (
    <form
      className="flex flex-wrap items-center gap-2"
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate({ meterId: meter.id, title: meter.title, includedUnits: Number(value) });
      }}
    >
      <input
        aria-label={`Free included units of ${meter.key}`}
        className={`${INPUT} w-20 font-mono`}
        type="number"
        min={0}
        value={value}
        onChange={(e) => setValue(e.target.value)}
        data-testid={`meter-included-${meter.key}`}
      />
      <button className="text-xs text-indigo-700 underline" disabled={save.isPending} data-testid={`meter-included-save-${meter.key}`}>
        {save.isPending ? "Saving" : "Save"}
      </button>
      {save.isSuccess && (
        <span role="status" className="text-xs text-emerald-700">
          Saved
        </span>
      )}
      {save.error && (
        <span role="alert" className="text-xs text-red-700">
          {save.error.message}
        </span>
      )}
    </form>
  );
}

function Usage() {
  const trpc = useTRPC();
  const usage = useQuery(trpc.analytics.meterUsage.queryOptions({ preset: "30d" }));
  return (
    <Section title="Usage per meter, last 30 days (UTC)" testId="section-meter-usage">
      <Loaded query={usage} what="usage">
        {(u) =>
          u.meters.length === 0 ? (
            <Empty testId="meter-usage-empty">No served calls in the last 30 days.</Empty>
          ) : (
            <>
              <MeterUsageChart days={u.days} meters={u.meters} />
              <details className="mt-2 text-sm">
                <summary className="cursor-pointer text-indigo-700">Show as a table</summary>
                <TableScroll>
                  <table className={`${TABLE_CLASS} mt-2`} data-testid="meter-usage-table">
                    <thead className="text-slate-500">
                      <tr>
                        <th className="py-1">Day</th>
                        {u.meters.map((m) => (
                          <th key={m} className="text-right font-mono">
                            {m}
                          </th>
                        ))}
                      </tr>
                    </thead>
                    <tbody>
                      {u.days
                        .filter((d) => Object.values(d.calls).some((n) => n > 0))
                        .map((d) => (
                          <tr key={d.day} className="border-t border-slate-100">
                            <td className="py-1 font-mono text-xs">{d.day}</td>
                            {u.meters.map((m) => (
                              <td key={m} className="text-right font-mono" data-testid={`meter-usage-${d.day}-${m}`}>
                                {count(d.calls[m] ?? 0)}
                              </td>
                            ))}
                          </tr>
                        ))}
                    </tbody>
                  </table>
                </TableScroll>
              </details>
              <p className="mt-2 text-xs text-slate-500">
                Calls served and paid: charged on a rail or drawn on prepaid credit. Totals: {u.meters.map((m) => `${m} ${count(u.totals[m] ?? 0)}`).join(", ")}
                .
              </p>
            </>
          )
        }
      </Loaded>
    </Section>
  );
}

export function PlansAndMeters() {
  const trpc = useTRPC();
  const overview = useQuery(trpc.catalog.overview.queryOptions());
  const plans = useQuery(trpc.catalog.plans.queryOptions());
  const meterChoices = (overview.data?.meters ?? [])
    .filter((m) => m.priceUsd !== null && m.priceUsd !== "0.000000")
    .map((m) => ({ key: m.key, title: m.title }));
  return (
    <>
      <PageHeader title="Plans and meters" actions={overview.data ? <CreatePlan meters={meterChoices} /> : null}>
        What the storefront sells: pay-as-you-go on every priced call, and prepaid credit plans that calls on their meters draw down at the per-request prices.
        A change to a plan applies to the next purchase and shows in /manifest.json at once; credit already bought keeps its amount and expiry. Prices are
        changed on{" "}
        <Link href="/console/prices" className="text-indigo-700 hover:underline">
          Prices
        </Link>
        .
      </PageHeader>
      <Section title="Plans" testId="section-plans">
        <Loaded query={plans} what="the plans">
          {(rows) =>
            rows.length === 0 ? (
              <Empty testId="plans-empty">No plans.</Empty>
            ) : (
              <TableScroll>
                <table className={TABLE_CLASS} data-testid="plans-table">
                  <thead className="text-slate-500">
                    <tr>
                      <th className="py-1">Plan</th>
                      <th>State</th>
                      <th>Purchase bounds</th>
                      <th>Card minimum</th>
                      <th>Credit lasts</th>
                      <th>Meters covered</th>
                      <th className="text-right">Live credit</th>
                      <th className="text-right">Sold</th>
                      <th>
                        <span className="sr-only">Actions</span>
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {rows.map((p) => (
                      <tr key={p.id} className="border-t border-slate-100 align-top" data-testid={`plan-row-${p.slug}`}>
                        <td className="py-2">
                          {p.name} <span className="block font-mono text-xs text-slate-500">{p.slug}</span>
                        </td>
                        <td data-testid="plan-state">{p.kind === "payg" ? "pay-as-you-go" : p.status}</td>
                        <td>{p.kind === "credit" ? `$${p.minimumUsd} to $${p.maximumUsd}` : "not purchasable"}</td>
                        <td>{p.cardMinimumUsd ? `$${p.cardMinimumUsd}` : "—"}</td>
                        <td>{p.kind === "credit" ? `${p.creditValidityDays} days` : "—"}</td>
                        <td className="font-mono text-xs">{p.meters.join(", ")}</td>
                        <td className="text-right font-mono" title={`${p.holders} credential(s) holding credit`}>
                          {p.kind === "credit" ? usd(p.liveCreditUsd) : "—"}
                        </td>
                        <td className="text-right font-mono">{p.kind === "credit" ? usd(p.purchasedUsd) : "—"}</td>
                        <td>
                          <PlanActions plan={p} meters={meterChoices} />
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </TableScroll>
            )
          }
        </Loaded>
      </Section>
      <Usage />
      <Loaded query={overview} what="the catalog">
        {(o) => (
          <>
            <Section title="Meters" testId="section-meters">
              <TableScroll>
                <table className={TABLE_CLASS} data-testid="meters-table">
                  <thead className="text-slate-500">
                    <tr>
                      <th className="py-1">Meter</th>
                      <th>Title</th>
                      <th>Unit</th>
                      <th>Free included units (per claimed human)</th>
                      <th className="text-right">Price per unit</th>
                      <th>Operations</th>
                    </tr>
                  </thead>
                  <tbody>
                    {o.meters.map((m) => {
                      const ops = o.services.flatMap((s) => s.operations.filter((op) => op.meter === m.key));
                      return (
                        <tr key={m.id} className="border-t border-slate-100 align-top" data-testid={`plans-meter-${m.key}`}>
                          <td className="py-2 font-mono">{m.key}</td>
                          <td>{m.title}</td>
                          <td>{m.unit}</td>
                          <td>
                            <IncludedUnitsEditor meter={m} />
                          </td>
                          <td className="text-right">{m.priceUsd === null ? "not priced" : usd(m.priceUsd)}</td>
                          <td className="font-mono text-xs">{ops.map((op) => op.key).join(", ") || "—"}</td>
                        </tr>
                      );
                    })}
                  </tbody>
                </table>
              </TableScroll>
            </Section>
            <Section title="Services and operations" testId="section-services">
              {o.services.map((s) => (
                <div key={s.id} className="mb-4">
                  <h3 className="font-medium">
                    {s.title} <span className="font-mono text-sm text-slate-500">{s.slug}</span>
                  </h3>
                  <ul className="mt-1 ml-4 text-sm">
                    {s.operations.map((op) => (
                      <li key={op.id} className="break-words">
                        <span className="font-mono">
                          {op.method} {op.path}
                        </span>{" "}
                        <span className="text-slate-500">
                          {op.summary} · meter {op.meter ?? "none"}
                        </span>
                      </li>
                    ))}
                  </ul>
                </div>
              ))}
            </Section>
          </>
        )}
      </Loaded>
    </>
  );
}
