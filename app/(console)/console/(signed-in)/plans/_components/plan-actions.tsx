"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "../../../providers";
import { useIsOwner, VIEWER_REASON } from "../../../_components/owner-only";
import { LINK_BUTTON } from "../../../_components/section";
import type { Outputs } from "../../../_components/types";
import { PlanChangeDialog, RetirePlanDialog, type PlanRow } from "./plan-dialogs";
import { PlanForm, type PlanTerms } from "./plan-form";
import { useInvalidateCatalog } from "./use-invalidate-catalog";

/** A live credit plan's actions: edit its terms (the form opens below the row) or retire it (confirmed). */
export function PlanActions({ plan, editing, onEdit }: { plan: PlanRow; editing: boolean; onEdit: () => void }) {
  const trpc = useTRPC();
  const invalidate = useInvalidateCatalog();
  const [retiring, setRetiring] = useState(false);
  const retire = useMutation(trpc.catalog.retirePlan.mutationOptions({ onSuccess: async () => (await invalidate(), setRetiring(false)) }));
  const owner = useIsOwner();
  if (plan.kind !== "credit" || plan.status !== "live") return null;
  return (
    <div className="flex gap-3">
      <button
        className={LINK_BUTTON}
        onClick={onEdit}
        aria-expanded={editing}
        disabled={!owner}
        title={owner ? undefined : VIEWER_REASON}
        data-testid={`plan-edit-${plan.slug}`}
        aria-label={`Edit ${plan.name}`}
      >
        Edit
      </button>
      <button
        className={`${LINK_BUTTON} text-red-700`}
        onClick={() => setRetiring(true)}
        disabled={!owner}
        title={owner ? undefined : VIEWER_REASON}
        data-testid={`plan-retire-${plan.slug}`}
        aria-label={`Retire ${plan.name}`}
      >
        Retire
      </button>
      <RetirePlanDialog
        plan={plan}
        open={retiring}
        pending={retire.isPending}
        error={retire.error?.message ?? null}
        onConfirm={() => retire.mutate({ planId: plan.id })}
        onClose={() => (setRetiring(false), retire.reset())}
      />
    </div>
  );
}

/** A plan's terms, edited: the form, then a preview of what the change does, then the change once confirmed. */
export function PlanEditor({ plan, meters, onDone }: { plan: PlanRow; meters: { key: string; title: string }[]; onDone: () => void }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const invalidate = useInvalidateCatalog();
  const [pending, setPending] = useState<{ terms: PlanTerms; preview: Outputs["catalog"]["previewPlan"] } | null>(null);
  const preview = useMutation({
    mutationFn: (terms: PlanTerms) => qc.fetchQuery(trpc.catalog.previewPlan.queryOptions({ ...terms, planId: plan.id }, { staleTime: 0 })),
    onSuccess: (p, terms) => setPending({ terms, preview: p }),
  });
  const update = useMutation(trpc.catalog.updatePlan.mutationOptions({ onSuccess: async () => (await invalidate(), setPending(null), onDone()) }));
  return (
    <>
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
        submitLabel="Review change"
        pending={preview.isPending}
        error={preview.error?.message ?? null}
        onSubmit={(terms) => preview.mutate(terms)}
        onCancel={onDone}
      />
      <PlanChangeDialog
        preview={pending?.preview ?? null}
        pending={update.isPending}
        error={update.error?.message ?? null}
        onConfirm={() => pending && update.mutate({ ...pending.terms, planId: plan.id })}
        onClose={() => (setPending(null), update.reset())}
      />
    </>
  );
}
