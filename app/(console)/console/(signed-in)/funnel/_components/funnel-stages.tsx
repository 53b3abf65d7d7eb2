"use client";

import { FunnelChart } from "../../../_components/charts";
import { count } from "../../../_components/format";
import { Empty, Section } from "../../../_components/section";
import type { Outputs } from "../../../_components/types";

type Funnel = Outputs["analytics"]["funnel"];

/** A share in percent with one decimal, from counts (display only). */
export const share = (part: number, whole: number) => (whole === 0 ? "—" : `${((part / whole) * 100).toFixed(1)}%`);

/** What each stage counts; each is a subset of the one before. */
const STAGES = [
  { key: "issued", label: "402s issued", defines: "Every 402 challenge the storefront answered an unpaid call with." },
  { key: "answered", label: "Answered", defines: "A proof of payment locked the 402, or a person opened its card checkout." },
  { key: "verified", label: "Verified", defines: "The proof verified and was held, or the card checkout was paid." },
  { key: "served", label: "Served", defines: "The upstream answered and the charge was decided (a paid card checkout is charged before it is served)." },
  { key: "settled", label: "Paid", defines: "The money moved: charged on chain or by card (refunded since included)." },
] as const;

function StageCard({
  stage,
  value,
  of,
  first,
  children,
}: {
  stage: (typeof STAGES)[number];
  value: number;
  of: number;
  first: boolean;
  children?: React.ReactNode;
}) {
  return (
    <li className="rounded-lg border border-slate-200 bg-white p-3 shadow-sm" data-testid={`funnel-step-${stage.key}`}>
      <p className="text-sm text-slate-600">{stage.label}</p>
      <p className="text-2xl font-semibold tabular-nums" data-testid={`funnel-${stage.key}`} data-value={value}>
        {count(value)}
      </p>
      {!first && <p className="text-xs text-slate-600">{share(value, of)} of the step before</p>}
      {children}
    </li>
  );
}

/** The funnel's stages, the figures beside them (proofs, payments that answered no 402), and what each stage counts. */
export function FunnelStages({ f }: { f: Funnel }) {
  const s = f.stages;
  const e = f.steps;
  const value = (k: (typeof STAGES)[number]["key"]) => s[k];
  return (
    <>
      <ol className="mt-3 grid grid-cols-2 gap-3 lg:grid-cols-5" data-testid="funnel-steps" aria-label="Funnel stages, each a subset of the one before">
        {STAGES.map((stage, i) => (
          <StageCard key={stage.key} stage={stage} value={value(stage.key)} of={i === 0 ? 0 : value(STAGES[i - 1]!.key)} first={i === 0}>
            {stage.key === "issued" && e.neverPaid > 0 && <p className="mt-1 text-xs text-red-800">− {count(e.neverPaid)} never paid</p>}
            {stage.key === "verified" && s.answered > s.verified && (
              <p className="mt-1 text-xs text-red-800">− {count(s.answered - s.verified)} card checkouts not paid</p>
            )}
            {stage.key === "served" && e.released > 0 && <p className="mt-1 text-xs text-red-800">− {count(e.released)} released, not served</p>}
            {stage.key === "settled" && e.failed > 0 && <p className="mt-1 text-xs text-red-800">− {count(e.failed)} settlement failed</p>}
          </StageCard>
        ))}
      </ol>
      <div className="mt-3 grid gap-3 sm:grid-cols-2">
        <div className="rounded-lg border border-dashed border-slate-300 bg-white p-3" data-testid="funnel-step-proofs">
          <p className="text-sm text-slate-600">Proofs received (beside the stages)</p>
          <p className="text-xl font-semibold tabular-nums" data-testid="funnel-proofs" data-value={e.proofs}>
            {count(e.proofs)}
          </p>
          {e.refused > 0 && <p className="text-xs text-red-800">− {count(e.refused)} refused</p>}
          <p className="mt-1 text-xs text-slate-600">
            Every payment proof that arrived: accepted ones, refused ones (a retry, a replay, a proof for another request), and proofs that answered no 402 of
            ours. Not a stage: a 402 can be answered more than once.
          </p>
        </div>
        <div className="rounded-lg border border-dashed border-slate-300 bg-white p-3" data-testid="funnel-without-challenge">
          <p className="text-sm text-slate-600">Paid without a 402 of ours</p>
          <p className="text-xl font-semibold tabular-nums">{count(s.withoutChallenge)}</p>
          <p className="mt-1 text-xs text-slate-600">x402 v1 clients pay the 402&apos;s body without echoing our challenge; counted here, not in the stages.</p>
        </div>
      </div>
      {s.issued + e.proofs === 0 ? (
        <div className="mt-6">
          <Empty testId="funnel-empty">No 402 challenges or payment proofs in this range.</Empty>
        </div>
      ) : (
        <Section title="Stages" testId="section-funnel-chart">
          <FunnelChart steps={STAGES.map((st) => ({ label: st.label, count: value(st.key) }))} />
          <dl className="mt-3 grid gap-1 text-sm sm:grid-cols-[9rem_1fr]" data-testid="funnel-definitions">
            {STAGES.map((st) => (
              <div key={st.key} className="contents">
                <dt className="font-medium">{st.label}</dt>
                <dd className="text-slate-700">{st.defines}</dd>
              </div>
            ))}
          </dl>
          <p className="mt-2 text-xs text-slate-600">Calls served on prepaid credit answer no 402 and are not in the funnel (see Usage).</p>
        </Section>
      )}
    </>
  );
}
