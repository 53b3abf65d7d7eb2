"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useTRPC } from "../../../providers";
import { usd } from "../../../_components/format";
import { Empty, Loaded, PageHeader, Section, TABLE_CLASS, TableScroll } from "../../../_components/section";

export function PlansAndMeters() {
  const trpc = useTRPC();
  const overview = useQuery(trpc.catalog.overview.queryOptions());
  return (
    <>
      <PageHeader title="Plans and meters">
        What the storefront sells: plans (pay-as-you-go and prepaid credit), the meters that count usage, and the operations each meter prices. Read-only here;
        prices are changed on{" "}
        <Link href="/console/prices" className="text-indigo-700 hover:underline">
          Prices
        </Link>
        .
      </PageHeader>
      <Loaded query={overview} what="the catalog">
        {(o) => (
          <>
            <Section title="Plans" testId="section-plans">
              {o.plans.length === 0 ? (
                <Empty testId="plans-empty">No plans.</Empty>
              ) : (
                <TableScroll>
                  <table className={TABLE_CLASS} data-testid="plans-table">
                    <thead className="text-slate-500">
                      <tr>
                        <th className="py-1">Plan</th>
                        <th>Kind</th>
                        <th>Purchase bounds</th>
                        <th>Card minimum</th>
                        <th>Meters covered</th>
                      </tr>
                    </thead>
                    <tbody>
                      {o.plans.map((p) => (
                        <tr key={p.id} className="border-t border-slate-100 align-top" data-testid={`plan-row-${p.slug}`}>
                          <td className="py-2">
                            {p.name} <span className="block font-mono text-xs text-slate-500">{p.slug}</span>
                          </td>
                          <td>{p.kind}</td>
                          <td>{p.kind === "credit" ? `$${p.minimumUsd} to $${p.maximumUsd}` : "not purchasable"}</td>
                          <td>{p.cardMinimumUsd ? `$${p.cardMinimumUsd}` : "—"}</td>
                          <td className="font-mono text-xs">{p.meters.join(", ")}</td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </TableScroll>
              )}
            </Section>
            <Section title="Meters" testId="section-meters">
              <TableScroll>
                <table className={TABLE_CLASS} data-testid="meters-table">
                  <thead className="text-slate-500">
                    <tr>
                      <th className="py-1">Meter</th>
                      <th>Title</th>
                      <th>Unit</th>
                      <th>Free included units</th>
                      <th className="text-right">Price per unit</th>
                      <th>Operations</th>
                    </tr>
                  </thead>
                  <tbody>
                    {o.meters.map((m) => {
                      const ops = o.services.flatMap((s) => s.operations.filter((op) => op.meter === m.key));
                      return (
                        <tr key={m.id} className="border-t border-slate-100 align-top" data-testid={`plans-meter-${m.key}`}>
                          <td className="py-2 font-mono">{m.key}</td>
                          <td>{m.title}</td>
                          <td>{m.unit}</td>
                          <td>{m.includedUnits}</td>
                          <td className="text-right">{m.priceUsd === null ? "not priced" : usd(m.priceUsd)}</td>
                          <td className="font-mono text-xs">{ops.map((op) => op.key).join(", ") || "—"}</td>
                        </tr>
                      );
                    })}
                  </tbody>
                </table>
              </TableScroll>
            </Section>
            <Section title="Services and operations" testId="section-services">
              {o.services.map((s) => (
                <div key={s.id} className="mb-4">
                  <h3 className="font-medium">
                    {s.title} <span className="font-mono text-sm text-slate-500">{s.slug}</span>
                  </h3>
                  <ul className="mt-1 ml-4 text-sm">
                    {s.operations.map((op) => (
                      <li key={op.id} className="break-words">
                        <span className="font-mono">
                          {op.method} {op.path}
                        </span>{" "}
                        <span className="text-slate-500">
                          {op.summary} · meter {op.meter ?? "none"}
                        </span>
                      </li>
                    ))}
                  </ul>
                </div>
              ))}
            </Section>
          </>
        )}
      </Loaded>
    </>
  );
}
