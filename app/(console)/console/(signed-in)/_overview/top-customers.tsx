"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useTRPC } from "../../providers";
import { count, short, usd, utcCell } from "../../_components/format";
import { Empty, LINK, Loaded, Section, STACKED_TABLE_CLASS, TableScroll } from "../../_components/section";
import type { Outputs } from "../../_components/types";
import type { RangeParams } from "../../_components/range";

type Top = Outputs["analytics"]["topCustomers"];
type Cards = Outputs["analytics"]["overview"]["cardPayers"];
type Customer = Top["wallets"][number] | Top["credentials"][number] | Cards["customers"][number];

function CustomerTable({ title, rows, what, testId }: { title: string; rows: Customer[]; what: string; testId: string }) {
  return (
    <div>
      <h3 className="font-medium">{title}</h3>
      {rows.length === 0 ? (
        <p className="mt-1 text-sm text-slate-600">None in this range.</p>
      ) : (
        <TableScroll label={title}>
          <table className={`${STACKED_TABLE_CLASS} mt-1`} data-testid={testId}>
            <thead className="text-slate-600">
              <tr>
                <th>{what}</th>
                <th className="text-right">{what === "Credential" ? "Purchases" : "Payments"}</th>
                <th className="text-right">Net</th>
                <th>Last (UTC)</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((c) => (
                <tr key={c.id} className="border-t border-slate-100">
                  <td className="py-1.5 font-mono text-xs whitespace-nowrap" title={c.id} data-label={what}>
                    <Link
                      className={LINK}
                      href={c.kind === "wallet" ? `/console/payments?payer=${encodeURIComponent(c.id)}` : `/console/payments?q=${encodeURIComponent(c.id)}`}
                    >
                      {short(c.id, 10, 4)}
                    </Link>
                  </td>
                  <td className="text-right tabular-nums" data-label={what === "Credential" ? "Purchases" : "Payments"}>
                    {count(c.payments)}
                  </td>
                  <td className="text-right tabular-nums" data-label="Net" data-value={c.netUsd}>
                    {usd(c.netUsd)}
                  </td>
                  <td className="font-mono text-xs whitespace-nowrap" data-label="Last (UTC)">
                    {utcCell(c.lastAt)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
    </div>
  );
}

/**
 * The biggest customers of the range: wallets by net spend, agent credentials by credit bought. Card payers have no
 * identity yet (a checkout records none): their money is one line until it does, and then their list goes here.
 */
export function TopCustomers({ range, cards }: { range: RangeParams; cards: Cards }) {
  const trpc = useTRPC();
  const q = useQuery(trpc.analytics.topCustomers.queryOptions(range));
  return (
    <Section
      title="Top customers"
      testId="section-top-customers"
      actions={
        <Link href="/console/customers" className={`${LINK} text-sm`}>
          All customers
        </Link>
      }
    >
      <Loaded query={q} what="top customers">
        {(c) =>
          c.wallets.length + c.credentials.length + cards.unidentified.payments === 0 ? (
            <Empty testId="top-customers-empty">No one paid in this range.</Empty>
          ) : (
            <div className="grid gap-6 lg:grid-cols-2">
              <CustomerTable title="Wallets (x402, MPP)" rows={c.wallets} what="Wallet" testId="top-wallets" />
              <CustomerTable title="Agent credentials (plan credit bought)" rows={c.credentials} what="Credential" testId="top-credentials" />
              <div data-testid="top-cards" className="lg:col-span-2">
                <h3 className="font-medium">Card payers</h3>
                {cards.customers.length > 0 ? (
                  <CustomerTable title="Card payers" rows={cards.customers} what="Card payer" testId="top-card-payers" />
                ) : (
                  <p className="mt-1 text-sm text-slate-700">
                    {cards.unidentified.payments === 0
                      ? "No card payments in this range."
                      : `${count(cards.unidentified.payments)} card payment${cards.unidentified.payments === 1 ? "" : "s"}, ${usd(cards.unidentified.netUsd)} net.`}{" "}
                    <span className="text-slate-600">Card checkouts do not record who paid yet, so card payers are not listed by name.</span>
                  </p>
                )}
              </div>
            </div>
          )
        }
      </Loaded>
    </Section>
  );
}
