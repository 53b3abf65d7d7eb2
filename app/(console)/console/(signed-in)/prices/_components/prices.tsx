"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "../../../providers";
import { RecentChanges } from "../../../_components/recent-changes";
import { BUTTON, INPUT, Loaded, PageHeader, Section, TABLE_CLASS, TableScroll } from "../../../_components/section";

function PriceEditor({ meterId, meterKey, priceUsd }: { meterId: string; meterKey: string; priceUsd: string | null }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const [value, setValue] = useState(priceUsd ?? "");
  const update = useMutation(
    trpc.catalog.updatePrice.mutationOptions({
      onSuccess: async () => {
        await qc.invalidateQueries({ queryKey: trpc.catalog.overview.queryKey() });
        await qc.invalidateQueries({ queryKey: trpc.audit.list.pathKey() });
      },
    }),
  );
  return (
    <form
      className="flex flex-wrap items-center gap-2"
      onSubmit={(e) => {
        e.preventDefault();
        update.mutate({ meterId, amountUsd: value });
      }}
    >
      <span className="text-slate-500" aria-hidden>
        $
      </span>
      <input
        aria-label={`Price of ${meterKey} in USD`}
        data-testid={`price-input-${meterKey}`}
        className={`${INPUT} w-28 font-mono`}
        value={value}
        onChange={(e) => setValue(e.target.value)}
        inputMode="decimal"
      />
      <button data-testid={`price-save-${meterKey}`} className={BUTTON} disabled={update.isPending}>
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

export function Prices() {
  const trpc = useTRPC();
  const overview = useQuery(trpc.catalog.overview.queryOptions());
  return (
    <>
      <PageHeader title="Prices">
        Per-request prices in USD, at most six decimals. A change is live at once in /manifest.json, /openapi.json and the gateway&apos;s charges, and is
        written to the audit log with the price before and after.
      </PageHeader>
      <Section title="Meters and prices" testId="section-prices">
        <Loaded query={overview} what="the prices">
          {(o) => (
            <TableScroll>
              <table className={TABLE_CLASS}>
                <thead className="text-slate-500">
                  <tr>
                    <th className="py-1">Meter</th>
                    <th>Unit</th>
                    <th>Free included units</th>
                    <th>Price (USD)</th>
                  </tr>
                </thead>
                <tbody>
                  {o.meters.map((m) => (
                    <tr key={m.id} className="border-t border-slate-100" data-testid={`meter-row-${m.key}`}>
                      <td className="py-2 font-mono">{m.key}</td>
                      <td>{m.unit}</td>
                      <td>{m.includedUnits}</td>
                      <td>
                        <PriceEditor key={m.id} meterId={m.id} meterKey={m.key} priceUsd={m.priceUsd} />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableScroll>
          )}
        </Loaded>
      </Section>
      <RecentChanges targetType="price" title="Recent price changes" />
    </>
  );
}
