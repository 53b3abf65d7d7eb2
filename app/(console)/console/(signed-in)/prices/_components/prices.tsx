"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { consolePrice, firstIssue } from "@/server/contracts/console";
import { OwnerOnly } from "../../../_components/owner-only";
import { useTRPC } from "../../../providers";
import { usd } from "../../../_components/format";
import { RecentChanges } from "../../../_components/recent-changes";
import { BUTTON, INPUT, Loaded, PageHeader, Section, STACKED_TABLE_CLASS, TableScroll } from "../../../_components/section";
import type { Outputs } from "../../../_components/types";
import { PriceChangeDialog } from "./price-change-dialog";

type Preview = Outputs["catalog"]["previewPrice"];

/** A meter's price: typed here, previewed (what it would do), and changed only once confirmed. */
function PriceEditor({ meterId, meterKey, priceUsd }: { meterId: string; meterKey: string; priceUsd: string | null }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const [value, setValue] = useState(priceUsd ? usd(priceUsd).slice(1).replace(/,/g, "") : "");
  const [preview, setPreview] = useState<Preview | null>(null);
  // Checked as it is typed, by the rule the server checks it with (server/contracts/console.ts).
  const [touched, setTouched] = useState(false);
  const invalid = firstIssue(consolePrice.safeParse(value));
  const ask = useMutation({
    mutationFn: (amountUsd: string) => qc.fetchQuery(trpc.catalog.previewPrice.queryOptions({ meterId, amountUsd }, { staleTime: 0 })),
    onSuccess: setPreview,
  });
  const update = useMutation(
    trpc.catalog.updatePrice.mutationOptions({
      onSuccess: async () => {
        setPreview(null);
        await Promise.all([
          qc.invalidateQueries({ queryKey: trpc.catalog.overview.queryKey() }),
          qc.invalidateQueries({ queryKey: trpc.audit.list.pathKey() }),
        ]);
      },
    }),
  );
  return (
    <>
      <form
        className="flex flex-wrap items-center gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          setTouched(true);
          update.reset();
          if (!invalid) ask.mutate(value.trim());
        }}
      >
        <span className="text-slate-600" aria-hidden>
          $
        </span>
        <input
          aria-label={`Price of ${meterKey} in USD`}
          data-testid={`price-input-${meterKey}`}
          className={`${INPUT} w-28 font-mono`}
          value={value}
          onChange={(e) => {
            setValue(e.target.value);
            setTouched(true);
            ask.reset();
          }}
          inputMode="decimal"
          aria-invalid={touched && invalid ? true : undefined}
          aria-describedby={touched && invalid ? `price-error-${meterKey}` : undefined}
        />
        <button data-testid={`price-save-${meterKey}`} className={BUTTON} disabled={ask.isPending || update.isPending}>
          {ask.isPending ? "Checking" : "Review change"}
        </button>
        {update.isSuccess && (
          <span
            role="status"
            data-testid={`price-status-${meterKey}`}
            className="text-sm text-emerald-700"
            data-value={`${update.data.beforeUsd}→${update.data.afterUsd}`}
          >
            Saved: {usd(update.data.beforeUsd)} to {usd(update.data.afterUsd)}
          </span>
        )}
        {((touched && invalid) || ask.isError) && (
          <span role="alert" id={`price-error-${meterKey}`} data-testid={`price-error-${meterKey}`} className="text-sm text-red-700">
            {touched && invalid ? invalid : ask.error?.message}
          </span>
        )}
      </form>
      <PriceChangeDialog
        preview={preview}
        pending={update.isPending}
        error={update.error?.message ?? null}
        onConfirm={() => preview && update.mutate({ meterId, amountUsd: preview.afterUsd })}
        onClose={() => setPreview(null)}
      />
    </>
  );
}

export function Prices() {
  const trpc = useTRPC();
  const overview = useQuery(trpc.catalog.overview.queryOptions());
  return (
    <>
      <PageHeader title="Prices">
        Per-request prices in USD, at most six decimals. Each change is reviewed first (what the last 30 days did at each price, and the rails it gains or
        loses: card is offered from $0.50), then live at once in /manifest.json, /openapi.json and the gateway&apos;s charges, and written to the audit log.
      </PageHeader>
      <Section title="Meters and prices" testId="section-prices">
        <OwnerOnly>
          <Loaded query={overview} what="the prices">
            {(o) => (
              <TableScroll label="Meters and prices">
                <table className={STACKED_TABLE_CLASS}>
                  <thead className="text-slate-600">
                    <tr>
                      <th className="py-1">Meter</th>
                      <th>Unit</th>
                      <th>Free included units</th>
                      <th>Price now</th>
                      <th>New price (USD)</th>
                    </tr>
                  </thead>
                  <tbody>
                    {o.meters.map((m) => (
                      <tr key={m.id} className="border-t border-slate-100" data-testid={`meter-row-${m.key}`}>
                        <td className="py-2" data-label="Meter">
                          {m.title} <span className="block font-mono text-xs text-slate-600">{m.key}</span>
                        </td>
                        <td data-label="Unit">{m.unit}</td>
                        <td data-label="Free included units">{m.includedUnits}</td>
                        <td className="tabular-nums" data-label="Price now" data-value={m.priceUsd ?? ""}>
                          {m.priceUsd === null ? "not priced" : usd(m.priceUsd)}
                        </td>
                        <td data-label="New price">
                          <PriceEditor key={m.id} meterId={m.id} meterKey={m.key} priceUsd={m.priceUsd} />
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </TableScroll>
            )}
          </Loaded>
        </OwnerOnly>
      </Section>
      <RecentChanges targetType="price" title="Recent price changes" />
    </>
  );
}
