"use client";

import { ConfirmDialog } from "../../../_components/confirm-dialog";
import { count, usd } from "../../../_components/format";
import type { Outputs } from "../../../_components/types";

type Preview = Outputs["catalog"]["previewPlan"];
export type PlanRow = Outputs["catalog"]["plans"][number];

/** A change of a plan's terms: each term before and after, the credit already bought (kept), and a refusal up front. */
export function PlanChangeDialog(props: { preview: Preview | null; pending: boolean; error: string | null; onConfirm: () => void; onClose: () => void }) {
  const p = props.preview;
  return (
    <ConfirmDialog
      open={p !== null}
      title={p ? `Change the terms of ${p.plan.name}?` : ""}
      testId="plan-change"
      confirmLabel="Change the terms"
      changes={p?.changes.map((c) => ({ label: c.label, before: c.before, after: c.after }))}
      pending={props.pending}
      confirmDisabled={!p || p.changes.length === 0 || p.blocked !== null}
      error={props.error}
      onConfirm={props.onConfirm}
      onClose={props.onClose}
      otherSideSees={{ who: "buyers", what: "The new terms in /manifest.json and on the checkout from the next purchase or top-up." }}
    >
      {p && (
        <div className="grid gap-2 text-sm">
          {p.changes.length === 0 && <p>Nothing would change.</p>}
          <p>
            {usd(p.liveCreditUsd)} of credit already bought on this plan ({count(p.holders)} credential{p.holders === 1 ? "" : "s"}) keeps its amount, meters
            and expiry: a change applies to the next purchase.
          </p>
          {p.metersAdded.length > 0 && <p>Credit bought from now on also pays for {p.metersAdded.join(", ")}.</p>}
          {p.blocked && (
            <p role="note" className="rounded bg-amber-50 p-2 text-amber-900" data-testid="plan-change-blocked">
              This change would be refused: {p.blocked}. Keep the meter, or wait until that credit is spent or expires.
            </p>
          )}
        </div>
      )}
    </ConfirmDialog>
  );
}

/** Retiring a plan: it stops being sold; the credit bought keeps working. */
export function RetirePlanDialog(props: { plan: PlanRow; open: boolean; pending: boolean; error: string | null; onConfirm: () => void; onClose: () => void }) {
  const { plan } = props;
  return (
    <ConfirmDialog
      open={props.open}
      title={`Retire ${plan.name}?`}
      testId="plan-retire-confirm"
      confirmTestId="plan-retire-yes"
      confirmLabel="Retire plan"
      danger
      changes={[{ label: "State", before: "Live (on sale)", after: "Retired" }]}
      pending={props.pending}
      error={props.error}
      onConfirm={props.onConfirm}
      onClose={props.onClose}
      otherSideSees={{
        who: "agents",
        what: `${plan.name} leaves /manifest.json; buying or topping it up answers plan_not_found. It cannot be sold again under its slug ${plan.slug}.`,
      }}
    >
      <p className="text-sm">
        Stop selling {plan.name}? It leaves the manifest and cannot be bought or topped up; the {usd(plan.liveCreditUsd)} of credit already bought (
        {count(plan.holders)} credential{plan.holders === 1 ? "" : "s"}) keeps paying for calls until it expires.
      </p>
    </ConfirmDialog>
  );
}

/** A meter's free included units, per claimed person: what each person gets before paying. */
export function IncludedUnitsDialog(props: {
  meter: { key: string; title: string; includedUnits: number } | null;
  next: number;
  pending: boolean;
  error: string | null;
  onConfirm: () => void;
  onClose: () => void;
}) {
  const m = props.meter;
  return (
    <ConfirmDialog
      open={m !== null}
      title={m ? `Change the free units of ${m.title}?` : ""}
      testId="meter-change"
      confirmLabel="Change free units"
      changes={m ? [{ label: "Free included units", before: count(m.includedUnits), after: count(props.next) }] : []}
      pending={props.pending}
      confirmDisabled={m?.includedUnits === props.next}
      error={props.error}
      onConfirm={props.onConfirm}
      onClose={props.onClose}
      otherSideSees={{
        who: "agents",
        what: m
          ? `Each person who claimed a credential gets ${count(props.next)} free ${m.key} call${props.next === 1 ? "" : "s"} (shared by their credentials), from the next call; the manifest says so at once.`
          : "",
      }}
    />
  );
}
