"use client";

import type { ReactNode } from "react";
import { utc } from "../../../../_components/format";
import { LINK, Section } from "../../../../_components/section";
import type { Outputs } from "../../../../_components/types";

export type Detail = Outputs["payments"]["detail"];

export function Field({ label, children, mono, testId }: { label: string; children: ReactNode; mono?: boolean; testId?: string }) {
  return (
    <div className="grid gap-0.5 py-1.5 sm:grid-cols-[12rem_1fr] sm:gap-3">
      <dt className="text-sm text-slate-600">{label}</dt>
      <dd className={`min-w-0 text-sm break-all ${mono ? "font-mono text-xs" : ""}`} data-testid={testId}>
        {children}
      </dd>
    </div>
  );
}

export function TxLink({ hash, url, testId }: { hash: string | null; url: string | null; testId: string }) {
  if (!hash) return <span>—</span>;
  return url ? (
    <a href={url} target="_blank" rel="noreferrer" className={LINK} data-testid={testId}>
      {hash}
    </a>
  ) : (
    <span data-testid={testId}>{hash}</span>
  );
}

/** A timeline step in a seller's words; the protocol's state name stays on hover. */
const STEP_LABEL: Record<string, string> = {
  challenged: "402 issued",
  incomplete: "Card checkout opened",
  declined: "Card declined",
  verified: "Verified",
  settling: "Charge decided",
  settled: "Charged",
  consumed: "Delivered",
  released: "Not charged",
  failed: "Failed",
  refunded: "Refunded",
  expired: "Expired",
  "awaiting proof": "Awaiting payment",
};

export function Timeline({ p }: { p: Detail }) {
  return (
    <Section title="Timeline" testId="payment-timeline">
      <ol className="relative ml-2 border-l border-slate-200">
        {p.timeline.map((t, i) => (
          <li key={`${t.state}-${i}`} className="mb-3 ml-4" data-testid={`timeline-${t.state}`}>
            <span className="absolute -left-1.5 mt-1.5 h-3 w-3 rounded-full border border-white bg-indigo-500" aria-hidden />
            <p className="text-sm">
              <span className="font-medium" title={t.state}>
                {STEP_LABEL[t.state] ?? t.state}
              </span>{" "}
              <span className="text-xs text-slate-600">{t.at ? utc(t.at) : "time not kept"}</span>
            </p>
            {t.note && <p className="text-sm text-slate-700">{t.note}</p>}
          </li>
        ))}
      </ol>
      {p.failure && (
        <p className="mt-2 rounded bg-slate-50 p-2 text-sm" data-testid="payment-failure">
          <span className="font-medium">{p.failure.meaning}</span> The payer can: {p.failure.payerCanDo}{" "}
          {p.failure.reason && <code className="text-xs text-slate-600">{p.failure.reason}</code>}
        </p>
      )}
    </Section>
  );
}
