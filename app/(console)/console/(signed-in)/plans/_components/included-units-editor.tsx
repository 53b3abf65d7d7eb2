"use client";

import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "../../../providers";
import { INPUT, LINK_BUTTON } from "../../../_components/section";
import { IncludedUnitsDialog } from "./plan-dialogs";
import { useInvalidateCatalog } from "./use-invalidate-catalog";

/** A meter's free included units per claimed person: typed, then confirmed. */
export function IncludedUnitsEditor({ meter }: { meter: { id: string; key: string; title: string; includedUnits: number } }) {
  const trpc = useTRPC();
  const invalidate = useInvalidateCatalog();
  const [value, setValue] = useState(String(meter.includedUnits));
  const [confirming, setConfirming] = useState(false);
  const save = useMutation(trpc.catalog.updateMeter.mutationOptions({ onSuccess: async () => (await invalidate(), setConfirming(false)) }));
  const next = Number(value);
  return (
    <>
      <form
        className="flex flex-wrap items-center gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          save.reset();
          setConfirming(true);
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
        <button className={LINK_BUTTON} disabled={!Number.isInteger(next) || next < 0} data-testid={`meter-included-save-${meter.key}`}>
          Review
        </button>
        {save.isSuccess && (
          <span role="status" className="text-xs text-emerald-700">
            Saved
          </span>
        )}
      </form>
      <IncludedUnitsDialog
        meter={confirming ? meter : null}
        next={next}
        pending={save.isPending}
        error={save.error?.message ?? null}
        onConfirm={() => save.mutate({ meterId: meter.id, title: meter.title, includedUnits: next })}
        onClose={() => (setConfirming(false), save.reset())}
      />
    </>
  );
}
