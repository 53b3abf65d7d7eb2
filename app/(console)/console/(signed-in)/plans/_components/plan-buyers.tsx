"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { useTRPC } from "../../../providers";
import { count, short, usd, utcCell } from "../../../_components/format";
import { Empty, LINK, LINK_BUTTON, Loaded, STACKED_TABLE_CLASS, TableScroll } from "../../../_components/section";

const PAGE = 25;

/** Who bought one plan: per person (by email) or unclaimed credential, largest amount first; "Show more" asks for more. */
export function PlanBuyers({ plan }: { plan: { id: string; name: string; slug: string } }) {
  const trpc = useTRPC();
  const [limit, setLimit] = useState(PAGE);
  const q = useQuery(trpc.customers.planBuyers.queryOptions({ planId: plan.id, limit }, { placeholderData: (prev) => prev }));
  return (
    <div className="rounded border border-slate-200 p-3" data-testid={`plan-buyers-${plan.slug}`}>
      <h3 className="mb-2 text-sm font-medium">Buyers of {plan.name}</h3>
      <Loaded query={q} what="the buyers">
        {({ buyers, more }) =>
          buyers.length === 0 ? (
            <Empty testId="plan-buyers-empty">Nobody has bought this plan yet.</Empty>
          ) : (
            <>
              <TableScroll label={`Buyers of ${plan.name}`}>
                <table className={STACKED_TABLE_CLASS} data-testid="plan-buyers-table">
                  <thead className="text-slate-600">
                    <tr>
                      <th className="py-1">Buyer</th>
                      <th className="text-right">Purchases</th>
                      <th className="text-right">Top-ups</th>
                      <th className="text-right">Bought (net of refunds)</th>
                      <th className="text-right">Credit left</th>
                      <th>Last purchase (UTC)</th>
                      <th>
                        <span className="sr-only">Links</span>
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {buyers.map((b) => {
                      const key = b.email ?? b.credentialIds[0]!;
                      return (
                        <tr key={b.humanId ?? key} className="border-t border-slate-100" data-testid="plan-buyer">
                          <td className="py-1" data-label="Buyer">
                            {b.email ?? (
                              <span className="font-mono text-xs" title={`${key}: an agent credential nobody has claimed`}>
                                {short(key, 8, 4)} (unclaimed agent)
                              </span>
                            )}
                            {b.email && b.credentialIds.length > 1 && (
                              <span className="block text-xs text-slate-600">{b.credentialIds.length} agent credentials</span>
                            )}
                          </td>
                          <td className="text-right tabular-nums" data-label="Purchases">
                            {count(b.purchases)}
                          </td>
                          <td className="text-right tabular-nums" data-label="Top-ups">
                            {count(b.topUps)}
                          </td>
                          <td className="text-right tabular-nums" data-label="Bought (net of refunds)" data-value={b.boughtUsd}>
                            {usd(b.boughtUsd)}
                          </td>
                          <td className="text-right tabular-nums" data-label="Credit left" data-value={b.creditLeftUsd}>
                            {usd(b.creditLeftUsd)}
                          </td>
                          <td className="tabular-nums" data-label="Last purchase (UTC)">
                            {utcCell(b.lastPurchaseAt)}
                          </td>
                          <td data-label="">
                            <span className="flex gap-3">
                              <Link className={LINK} href={`/console/payments?q=${encodeURIComponent(key)}`}>
                                Payments
                              </Link>
                              <Link className={LINK} href="/console/customers">
                                Customers
                              </Link>
                            </span>
                          </td>
                        </tr>
                      );
                    })}
                  </tbody>
                </table>
              </TableScroll>
              {more && (
                <button className={`${LINK_BUTTON} mt-2`} onClick={() => setLimit(limit + PAGE)} data-testid="plan-buyers-more">
                  Show more
                </button>
              )}
            </>
          )
        }
      </Loaded>
    </div>
  );
}
