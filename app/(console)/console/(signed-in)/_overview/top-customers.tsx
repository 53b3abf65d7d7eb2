"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useTRPC } from "../../providers";
import { count, short, usd, utcCell } from "../../_components/format";
import { Empty, LINK, Loaded, Section, STACKED_TABLE_CLASS, TableScroll } from "../../_components/section";
import type { Outputs } from "../../_components/types";
import type { RangeParams } from "../../_components/range";

type Top = Outputs["analytics"]["topCustomers"];
type CardPayers = Outputs["customers"]["cardPayers"]["payers"];
type Customer = Top["wallets"][number] | Top["credentials"][number] | { kind: "card"; id: string; payments: number; netUsd: string; lastAt: string | null };

/** Card payers as customers: by the email they gave (at our checkout or the processor's), else by card. */
export function cardCustomers(payers: CardPayers): Customer[] {
  return payers.map((p) => ({ kind: "card" as const, id: p.email ?? p.cards.join(", "), payments: p.payments, netUsd: p.paidUsd, lastAt: p.lastAt }));
}

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
                  <td className={`py-1.5 ${c.kind === "card" ? "break-all" : "font-mono text-xs whitespace-nowrap"}`} title={c.id} data-label={what}>
                    <Link
                      className={LINK}
                      href={c.kind === "wallet" ? `/console/payments?payer=${encodeURIComponent(c.id)}` : `/console/payments?q=${encodeURIComponent(c.id)}`}
                    >
                      {c.kind === "card" ? c.id : short(c.id, 10, 4)}
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

/** The biggest customers of the range: wallets by net spend, agent credentials by credit bought, card payers by what they paid. */
export function TopCustomers({ range }: { range: RangeParams }) {
  const trpc = useTRPC();
  const q = useQuery(trpc.analytics.topCustomers.queryOptions(range));
  const cardsQ = useQuery(trpc.customers.cardPayers.queryOptions(range));
  const cards = cardCustomers(cardsQ.data?.payers ?? []).slice(0, 5);
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
          c.wallets.length + c.credentials.length + cards.length === 0 ? (
            <Empty testId="top-customers-empty">No one paid in this range.</Empty>
          ) : (
            <div className="grid gap-6 lg:grid-cols-2">
              <CustomerTable title="Wallets (x402, MPP)" rows={c.wallets} what="Wallet" testId="top-wallets" />
              <CustomerTable title="Agent credentials (plan credit bought)" rows={c.credentials} what="Credential" testId="top-credentials" />
              <div data-testid="top-cards" className="lg:col-span-2">
                <CustomerTable title="Card payers (by email, else card)" rows={cards} what="Card payer" testId="top-card-payers" />
              </div>
            </div>
          )
        }
      </Loaded>
    </Section>
  );
}
