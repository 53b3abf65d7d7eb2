"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { signOut } from "next-auth/react";
import { useState } from "react";
import { ArchiveSection } from "./archive-section";
import { IdentitySection } from "./identity-section";
import { PaymentsSection } from "./payments-section";
import { useTRPC } from "./providers";
import { Section, TABLE_CLASS } from "./section";

function PriceEditor({ meterId, meterKey, priceUsd }: { meterId: string; meterKey: string; priceUsd: string | null }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const [value, setValue] = useState(priceUsd ?? "");
  const update = useMutation(
    trpc.catalog.updatePrice.mutationOptions({
      onSuccess: async () => {
        await qc.invalidateQueries({ queryKey: trpc.catalog.overview.queryKey() });
        await qc.invalidateQueries({ queryKey: trpc.catalog.auditLog.queryKey() });
      },
    }),
  );
  return (
    <form
      className="flex items-center gap-2"
      onSubmit={(e) => {
        e.preventDefault();
        update.mutate({ meterId, amountUsd: value });
      }}
    >
      <span className="text-slate-500">$</span>
      <input
        aria-label={`Price of ${meterKey} in USD`}
        data-testid={`price-input-${meterKey}`}
        className="w-28 rounded border border-slate-300 px-2 py-1 font-mono"
        value={value}
        onChange={(e) => setValue(e.target.value)}
        inputMode="decimal"
      />
      <button data-testid={`price-save-${meterKey}`} className="rounded bg-indigo-600 px-3 py-1 text-white disabled:opacity-50" disabled={update.isPending}>
        {update.isPending ? "Saving" : "Save"}
      </button>
      {update.isSuccess && (
        <span role="status" data-testid={`price-status-${meterKey}`} className="text-sm text-emerald-700">
          Saved: {update.data.beforeUsd} to {update.data.afterUsd}
        </span>
      )}
      {update.isError && (
        <span role="alert" data-testid={`price-error-${meterKey}`} className="text-sm text-red-700">
          {update.error.message}
        </span>
      )}
    </form>
  );
}

export function Dashboard({ email }: { email: string }) {
  const trpc = useTRPC();
  const overview = useQuery(trpc.catalog.overview.queryOptions());
  const audit = useQuery(trpc.catalog.auditLog.queryOptions());
  if (overview.isPending) return <main className="p-10 text-slate-500">Loading the catalog</main>;
  if (overview.isError) return <main className="p-10 text-red-700">Could not load the catalog: {overview.error.message}</main>;
  const o = overview.data;
  return (
    <main className="mx-auto max-w-5xl px-6 py-10">
      <header className="flex items-center justify-between">
        <div>
          <h1 className="text-2xl font-semibold" data-testid="seller-name">
            {o.seller.name}
          </h1>
          <p className="text-sm text-slate-500">
            Hosts: {o.seller.hosts.join(", ")} · signing secret {o.seller.signingSecretSet ? "set" : "missing (priced calls answer 409)"} · payTo{" "}
            <span className="font-mono">{o.seller.payTo ?? "not set"}</span>
          </p>
        </div>
        <div className="text-right text-sm">
          <div>{email}</div>
          <button className="text-indigo-700 hover:underline" onClick={() => signOut({ callbackUrl: "/console/sign-in" })}>
            Sign out
          </button>
        </div>
      </header>

      <Section title="Meters and prices">
        <p className="mb-3 text-sm text-slate-500">Per-request prices in USD. A change is live at once in /manifest.json and /openapi.json.</p>
        <table className={TABLE_CLASS}>
          <thead className="text-slate-500">
            <tr>
              <th className="py-1">Meter</th>
              <th>Unit</th>
              <th>Free included units</th>
              <th>Price</th>
            </tr>
          </thead>
          <tbody>
            {o.meters.map((m) => (
              <tr key={m.id} className="border-t border-slate-100" data-testid={`meter-row-${m.key}`}>
                <td className="py-2 font-mono">{m.key}</td>
                <td>{m.unit}</td>
                <td>{m.includedUnits}</td>
                <td>
                  <PriceEditor meterId={m.id} meterKey={m.key} priceUsd={m.priceUsd} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </Section>

      <Section title="Services and operations">
        {o.services.map((s) => (
          <div key={s.id} className="mb-4">
            <h3 className="font-medium">
              {s.title} <span className="font-mono text-sm text-slate-500">{s.slug}</span>
            </h3>
            <ul className="ml-4 text-sm">
              {s.operations.map((op) => (
                <li key={op.id}>
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

      <Section title="Plans">
        <table className={TABLE_CLASS}>
          <thead className="text-slate-500">
            <tr>
              <th className="py-1">Plan</th>
              <th>Kind</th>
              <th>Purchase bounds</th>
              <th>Card minimum</th>
              <th>Meters</th>
            </tr>
          </thead>
          <tbody>
            {o.plans.map((p) => (
              <tr key={p.id} className="border-t border-slate-100">
                <td className="py-2">{p.name}</td>
                <td>{p.kind}</td>
                <td>{p.kind === "credit" ? `$${p.minimumUsd} to $${p.maximumUsd}` : "not purchasable"}</td>
                <td>{p.cardMinimumUsd ? `$${p.cardMinimumUsd}` : "-"}</td>
                <td className="font-mono text-xs">{p.meters.join(", ")}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </Section>

      <PaymentsSection />

      <ArchiveSection />

      <IdentitySection />

      <Section title="Audit log">
        {audit.data?.length ? (
          <ul className="text-sm" data-testid="audit-log">
            {audit.data.map((a) => (
              <li key={a.id} className="border-t border-slate-100 py-1">
                <span className="font-mono">{a.at}</span> {a.actor ?? "system"} {a.action} {JSON.stringify(a.before)} → {JSON.stringify(a.after)}
              </li>
            ))}
          </ul>
        ) : (
          <p className="text-sm text-slate-500">No changes yet.</p>
        )}
      </Section>
    </main>
  );
}
