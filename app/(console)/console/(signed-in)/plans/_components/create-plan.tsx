"use client";

import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "../../../providers";
import { BUTTON } from "../../../_components/section";
import { EMPTY_TERMS, PlanForm } from "./plan-form";
import { useInvalidateCatalog } from "./use-invalidate-catalog";

/** A new credit plan: nothing is sold until it is created, so it needs no confirmation beyond the form. */
export function CreatePlan({ meters }: { meters: { key: string; title: string }[] }) {
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
