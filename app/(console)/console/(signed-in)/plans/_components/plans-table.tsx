"use client";

import { useQuery } from "@tanstack/react-query";
import { Fragment, useState } from "react";
import { useTRPC } from "../../../providers";
import { count, usd } from "../../../_components/format";
import { Empty, LINK_BUTTON, Loaded, Section, STACKED_TABLE_CLASS, TableScroll } from "../../../_components/section";
import { PlanActions, PlanEditor } from "./plan-actions";
import { PlanBuyers } from "./plan-buyers";

const cents = (v: string | null) => (v === null ? "—" : `$${v}`);

/** Every plan (retired ones too), its terms, the credit bought on it that is still live and who holds it. */
export function PlansTable({ meters }: { meters: { key: string; title: string }[] }) {
  const trpc = useTRPC();
  const plans = useQuery(trpc.catalog.plans.queryOptions());
  const [editing, setEditing] = useState<string | null>(null);
  const [showingBuyers, setShowingBuyers] = useState<string | null>(null);
  return (
    <Section title="Plans" testId="section-plans">
      <Loaded query={plans} what="the plans">
        {(rows) =>
          rows.length === 0 ? (
            <Empty testId="plans-empty">No plans.</Empty>
          ) : (
            <TableScroll label="Plans">
              <table className={STACKED_TABLE_CLASS} data-testid="plans-table">
                <thead className="text-slate-600">
                  <tr>
                    <th className="py-1">Plan</th>
                    <th>State</th>
                    <th>Purchase bounds</th>
                    <th>Card minimum</th>
                    <th>Credit lasts</th>
                    <th>Meters covered</th>
                    <th className="text-right">Live credit</th>
                    <th className="text-right">Sold</th>
                    <th>
                      <span className="sr-only">Actions</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {rows.map((p) => (
                    <Fragment key={p.id}>
                      <tr className="border-t border-slate-100 align-top" data-testid={`plan-row-${p.slug}`}>
                        <td className="py-2" data-label="Plan">
                          {p.name} <span className="block font-mono text-xs text-slate-600">{p.slug}</span>
                        </td>
                        <td data-testid="plan-state" data-label="State">
                          {p.kind === "payg" ? "pay-as-you-go" : p.status}
                        </td>
                        <td data-label="Purchase bounds">{p.kind === "credit" ? `${cents(p.minimumUsd)} to ${cents(p.maximumUsd)}` : "not purchasable"}</td>
                        <td data-label="Card minimum">{cents(p.cardMinimumUsd)}</td>
                        <td data-label="Credit lasts">{p.kind === "credit" ? `${p.creditValidityDays} days` : "—"}</td>
                        <td className="font-mono text-xs" data-label="Meters covered">
                          {p.meters.join(", ")}
                        </td>
                        <td className="text-right tabular-nums" data-label="Live credit" title={`${count(p.holders)} credential(s) holding credit`}>
                          {p.kind === "credit" ? `${usd(p.liveCreditUsd)} (${count(p.holders)} holder${p.holders === 1 ? "" : "s"})` : "—"}
                        </td>
                        <td className="text-right tabular-nums" data-label="Sold">
                          {p.kind === "credit" ? usd(p.purchasedUsd) : "—"}
                        </td>
                        <td data-label="">
                          <div className="flex flex-wrap gap-3">
                            {p.kind === "credit" && (
                              <button
                                className={LINK_BUTTON}
                                onClick={() => setShowingBuyers(showingBuyers === p.id ? null : p.id)}
                                aria-expanded={showingBuyers === p.id}
                                data-testid={`plan-buyers-toggle-${p.slug}`}
                                aria-label={`Buyers of ${p.name}`}
                              >
                                Buyers
                              </button>
                            )}
                            <PlanActions plan={p} editing={editing === p.id} onEdit={() => setEditing(editing === p.id ? null : p.id)} />
                          </div>
                        </td>
                      </tr>
                      {showingBuyers === p.id && (
                        <tr>
                          <td colSpan={9} className="pb-3">
                            <PlanBuyers plan={p} />
                          </td>
                        </tr>
                      )}
                      {editing === p.id && (
                        <tr>
                          <td colSpan={9} className="pb-3">
                            <PlanEditor plan={p} meters={meters} onDone={() => setEditing(null)} />
                          </td>
                        </tr>
                      )}
                    </Fragment>
                  ))}
                </tbody>
              </table>
            </TableScroll>
          )
        }
      </Loaded>
    </Section>
  );
}
