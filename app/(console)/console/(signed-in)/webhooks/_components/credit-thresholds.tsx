"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "../../../providers";
import { OwnerOnly } from "../../../_components/owner-only";
import { BUTTON_SECONDARY, Empty, INPUT, Loaded, Section, TABLE_CLASS, TableScroll } from "../../../_components/section";

function ThresholdRow({ p }: { p: { planId: string; name: string; slug: string; status: string; thresholdUsd: string | null } }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const [value, setValue] = useState(p.thresholdUsd ?? "");
  const save = useMutation(
    trpc.webhooks.setCreditThreshold.mutationOptions({ onSuccess: () => qc.invalidateQueries({ queryKey: trpc.webhooks.creditThresholds.queryKey() }) }),
  );
  return (
    <tr className="border-t border-slate-100" data-testid={`threshold-${p.slug}`}>
      <td className="py-1.5">
        {p.name} <span className="font-mono text-xs text-slate-500">{p.slug}</span>
        {p.status !== "live" && <span className="ml-2 text-xs text-slate-500">({p.status})</span>}
      </td>
      <td>
        <form
          className="flex items-center gap-2"
          onSubmit={(e) => {
            e.preventDefault();
            save.mutate({ planId: p.planId, thresholdUsd: value.trim() === "" ? null : value.trim() });
          }}
        >
          <label className="sr-only" htmlFor={`threshold-${p.planId}`}>
            Credit low below (USD) for {p.name}
          </label>
          <span>$</span>
          <input
            id={`threshold-${p.planId}`}
            className={`${INPUT} w-28 tabular-nums`}
            value={value}
            onChange={(e) => setValue(e.target.value)}
            placeholder="none"
            inputMode="decimal"
            data-testid="threshold-input"
          />
          <button className={BUTTON_SECONDARY} disabled={save.isPending} data-testid="threshold-save">
            Save
          </button>
          {save.isSuccess && <span className="text-xs text-emerald-700">saved</span>}
          {save.error && (
            <span role="alert" className="text-xs text-red-700">
              {save.error.message}
            </span>
          )}
        </form>
      </td>
    </tr>
  );
}

/** Per credit plan, the balance below which a holder's credit counts as low (credit.low). Empty: only credit.exhausted. */
export function CreditThresholds() {
  const trpc = useTRPC();
  const q = useQuery(trpc.webhooks.creditThresholds.queryOptions());
  return (
    <Section title="Credit alerts" testId="section-credit-thresholds">
      <p className="mb-3 text-sm text-slate-500">
        A buyer&apos;s credit on a plan falling below its line sends credit.low; reaching zero sends credit.exhausted.
      </p>
      <Loaded query={q} what="credit plans">
        {(plans) =>
          plans.length === 0 ? (
            <Empty testId="thresholds-empty">No credit plan: create one under Plans and meters.</Empty>
          ) : (
            <OwnerOnly>
              <TableScroll label="Credit-low thresholds per plan">
                <table className={TABLE_CLASS} data-testid="credit-thresholds">
                  <thead className="text-slate-500">
                    <tr>
                      <th className="py-1">Plan</th>
                      <th>Credit low below</th>
                    </tr>
                  </thead>
                  <tbody>
                    {plans.map((p) => (
                      <ThresholdRow key={p.planId} p={p} />
                    ))}
                  </tbody>
                </table>
              </TableScroll>
            </OwnerOnly>
          )
        }
      </Loaded>
    </Section>
  );
}
