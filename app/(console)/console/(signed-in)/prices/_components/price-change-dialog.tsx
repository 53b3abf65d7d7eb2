"use client";

import { ConfirmDialog } from "../../../_components/confirm-dialog";
import { count, usd } from "../../../_components/format";
import { TABLE_CLASS, TableScroll } from "../../../_components/section";
import type { Outputs } from "../../../_components/types";

type Preview = Outputs["catalog"]["previewPrice"];

const RAIL_NAMES: Record<string, string> = { x402: "x402", mpp: "MPP", card: "card" };
const railList = (rails: { rail: string }[]) => (rails.length ? rails.map((r) => RAIL_NAMES[r.rail] ?? r.rail).join(", ") : "none (free: no payment asked)");

function LastThirtyDays({ p }: { p: Preview }) {
  if (p.last30Days.byPrice.length === 0) return <p className="text-sm text-slate-700">No calls of {p.meter.key} in the last 30 days.</p>;
  return (
    <div>
      <h3 className="text-sm font-medium">Last 30 days at each price</h3>
      <TableScroll label="Calls and revenue of the last 30 days at each price">
        <table className={`${TABLE_CLASS} mt-1`} data-testid="price-history">
          <thead className="text-slate-600">
            <tr>
              <th>Price</th>
              <th className="text-right">Calls paid</th>
              <th className="text-right">On prepaid credit</th>
              <th className="text-right">Revenue</th>
            </tr>
          </thead>
          <tbody>
            {p.last30Days.byPrice.map((h) => (
              <tr key={h.priceUsd} className="border-t border-slate-100">
                <td className="py-1">
                  {usd(h.priceUsd)}
                  {h.current ? " (now)" : ""}
                </td>
                <td className="text-right tabular-nums">{count(h.calls)}</td>
                <td className="text-right tabular-nums" title={`${usd(h.drawnUsd)} of credit drawn`}>
                  {count(h.draws)}
                </td>
                <td className="text-right tabular-nums">{usd(h.revenueUsd)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
      {p.last30Days.atNewPrice && (
        <p className="mt-1 text-sm text-slate-700" data-testid="price-at-new">
          At {usd(p.afterUsd)}, the {count(p.last30Days.atNewPrice.calls)} call{p.last30Days.atNewPrice.calls === 1 ? "" : "s"} paid at today&apos;s price would
          have brought <span className="font-medium">{usd(p.last30Days.atNewPrice.revenueUsd)}</span>. An estimate: some agents may stop calling, or start.
        </p>
      )}
    </div>
  );
}

/** A price change's confirmation: the old and new price, what the last 30 days did at each, and the rails it gains or loses. */
export function PriceChangeDialog({
  preview: p,
  pending,
  error,
  onConfirm,
  onClose,
}: {
  preview: Preview | null;
  pending: boolean;
  error: string | null;
  onConfirm: () => void;
  onClose: () => void;
}) {
  return (
    <ConfirmDialog
      open={p !== null}
      title={p ? `Change the price of ${p.meter.title}?` : ""}
      testId="price-change"
      confirmLabel="Change the price"
      changes={p ? [{ label: "Price per call", before: p.beforeUsd === null ? "not priced" : usd(p.beforeUsd), after: usd(p.afterUsd) }] : []}
      pending={pending}
      confirmDisabled={p?.unchanged}
      error={error}
      onConfirm={onConfirm}
      onClose={onClose}
      otherSideSees={{
        who: "agents",
        what: (
          <>
            The new price in every 402, /manifest.json and /openapi.json from the next request ({p?.meter.operations.join(", ")}). A 402 issued at the old price
            is refused when paid (terms_changed): the agent asks for a fresh one.
          </>
        ),
      }}
    >
      {p && (
        <>
          {p.unchanged && <p className="text-sm text-slate-700">That is the current price: nothing would change.</p>}
          <LastThirtyDays p={p} />
          <div className="text-sm" data-testid="price-rails">
            <p>
              <span className="text-slate-600">Payable by:</span> {railList(p.rails.before)} <span aria-label="becomes">→</span>{" "}
              <span className="font-medium">{railList(p.rails.after)}</span>
            </p>
            {p.rails.lost.length > 0 && (
              <p className="mt-1 rounded bg-amber-50 p-2 text-amber-900" role="note" data-testid="price-rails-lost">
                Loses {p.rails.lost.map((r) => RAIL_NAMES[r] ?? r).join(", ")}:{" "}
                {p.rails.lost.includes("card") ? `card payments are offered only from ${usd(p.cardMinimumUsd)}; ` : ""}agents paying this way must switch.
              </p>
            )}
            {p.rails.gained.length > 0 && (
              <p className="mt-1 text-emerald-800" data-testid="price-rails-gained">
                Gains {p.rails.gained.map((r) => RAIL_NAMES[r] ?? r).join(", ")}.
              </p>
            )}
          </div>
        </>
      )}
    </ConfirmDialog>
  );
}
