"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useTRPC } from "../../../../providers";
import { CopyButton, ShortId } from "@/app/_components/short-id";
import { count, railLabel, short, usd, utcCell } from "../../../../_components/format";
import { OperationName } from "../../../../_components/operation-name";
import { Empty, Kpi, LINK, Loaded, PageHeader, Section, STACKED_TABLE_CLASS, TableScroll } from "../../../../_components/section";
import { StateBadge } from "../../../../_components/state-badge";
import { CreditHeldByInstances } from "./credit-held-by-instances";
import type { PaymentStatus } from "@/server/contracts/payment-words";
import type { Outputs } from "../../../../_components/types";

type Customer = Outputs["customers"]["customer"];

const KIND_TITLE: Record<Customer["kind"], string> = { wallet: "Wallet", email: "Person", credential: "Agent credential" };

/** Where a customer's page lives: wallets, emails and credentials are all valid path segments once encoded. */
export const customerHref = (id: string) => `/console/customers/${encodeURIComponent(id)}`;

function Who({ c }: { c: Customer }) {
  return (
    <dl className="grid gap-x-6 gap-y-2 text-sm sm:grid-cols-[max-content_1fr]" data-testid="customer-who">
      <dt className="text-slate-600">{KIND_TITLE[c.kind]}</dt>
      <dd className="min-w-0 font-mono text-xs break-all">
        {c.id} <CopyButton value={c.id} what={KIND_TITLE[c.kind].toLowerCase()} />
      </dd>
      {c.cards.length > 0 && (
        <>
          <dt className="text-slate-600">Cards</dt>
          <dd className="font-mono text-xs">{c.cards.join(", ")}</dd>
        </>
      )}
      {c.credentials.length > 0 && (
        <>
          <dt className="text-slate-600">Agent credentials</dt>
          <dd className="min-w-0">
            <ul>
              {c.credentials.map((x) => (
                <li key={x.id} className="font-mono text-xs break-all">
                  {c.kind === "credential" ? (
                    x.id
                  ) : (
                    <Link className={LINK} href={customerHref(x.id)}>
                      {x.id}
                    </Link>
                  )}
                  {x.revoked && <span className="ml-1 font-sans text-red-700">(revoked)</span>}
                </li>
              ))}
            </ul>
          </dd>
        </>
      )}
      <dt className="text-slate-600">First and last payment (UTC)</dt>
      <dd className="font-mono text-xs">
        {utcCell(c.firstAt)} · {utcCell(c.lastAt)}
      </dd>
    </dl>
  );
}

function Plans({ c }: { c: Customer }) {
  return (
    <Section title="Plans and credit" testId="customer-plans">
      {c.plans.length === 0 ? (
        <Empty testId="customer-plans-empty">No plan credit bought.</Empty>
      ) : (
        <TableScroll label="Plans and credit">
          <table className={STACKED_TABLE_CLASS}>
            <thead className="text-slate-600">
              <tr>
                <th className="py-1">Plan</th>
                <th className="text-right">Bought</th>
                <th className="text-right">Credit left</th>
                <th>Expires (UTC)</th>
              </tr>
            </thead>
            <tbody>
              {c.plans.map((p, i) => (
                <tr key={i} className="border-t border-slate-100">
                  <td className="py-1.5" data-label="Plan">
                    {p.plan}
                  </td>
                  <td className="text-right tabular-nums" data-label="Bought" data-value={p.boughtUsd}>
                    {usd(p.boughtUsd)}
                  </td>
                  <td className="text-right tabular-nums" data-label="Credit left" data-value={p.remainingUsd}>
                    {p.live ? usd(p.remainingUsd) : "expired"}
                  </td>
                  <td className="font-mono text-xs whitespace-nowrap" data-label="Expires (UTC)">
                    {utcCell(p.expiresAt)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
    </Section>
  );
}

function Payments({ c }: { c: Customer }) {
  const all = `/console/payments?q=${encodeURIComponent(c.id)}`;
  return (
    <Section
      title="Payments"
      testId="customer-payments"
      actions={
        <Link className={LINK} href={all}>
          All of them in Payments
        </Link>
      }
    >
      {c.payments.length === 0 ? (
        <Empty testId="customer-payments-empty">No payment moved money yet.</Empty>
      ) : (
        <TableScroll label="Payments">
          <table className={STACKED_TABLE_CLASS} data-testid="customer-payments-table">
            <thead className="text-slate-600">
              <tr>
                <th className="py-1">Created (UTC)</th>
                <th>Payment</th>
                <th>Operation</th>
                <th>Method</th>
                <th className="text-right">Amount</th>
                <th>State</th>
                <th className="text-right">Refunded</th>
              </tr>
            </thead>
            <tbody>
              {c.payments.map((p) => (
                <tr key={p.id} className="border-t border-slate-100" data-testid="customer-payment-row">
                  <td className="py-1.5 font-mono text-xs whitespace-nowrap" data-label="Created (UTC)">
                    {utcCell(p.createdAt)}
                  </td>
                  <td className="font-mono text-xs whitespace-nowrap" data-label="Payment">
                    <ShortId value={p.id} what="payment id" href={`/console/payments/${encodeURIComponent(p.id)}`} head={8} tail={4} copy={false} />
                  </td>
                  <td data-label="Operation">
                    <OperationName op={p.operation} testId="customer-payment-operation" />
                  </td>
                  <td data-label="Method">{railLabel(p.rail)}</td>
                  <td className="text-right tabular-nums" data-label="Amount" data-value={p.amountUsd}>
                    {usd(p.amountUsd)}
                  </td>
                  <td data-label="State">
                    <StateBadge status={p.status as PaymentStatus} />
                  </td>
                  <td className="text-right tabular-nums" data-label="Refunded" data-value={p.refundedUsd ?? undefined}>
                    {p.refundedUsd ? `${usd(p.refundedUsd)} · ${utcCell(p.refundedAt)}` : "—"}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
      {c.morePayments && (
        <p className="mt-2 text-sm text-slate-600">
          The latest {c.payments.length} are shown;{" "}
          <Link className={LINK} href={all}>
            see every payment
          </Link>
          .
        </p>
      )}
    </Section>
  );
}

/** One customer: what they paid net of refunds first, then who they are, their plan credit and their latest payments. */
export function CustomerDetail({ id }: { id: string }) {
  const trpc = useTRPC();
  const q = useQuery(trpc.customers.customer.queryOptions({ id }));
  return (
    <>
      <p className="text-sm">
        <Link className={LINK} href="/console/customers">
          Customers
        </Link>
      </p>
      <Loaded query={q} what="this customer">
        {(c) => (
          <>
            <PageHeader title={c.kind === "wallet" ? `Wallet ${short(c.id, 8, 6)}` : c.id}>
              {KIND_TITLE[c.kind]}: what they paid this storefront net of refunds, their plan credit and their latest payments.
            </PageHeader>
            <div className="mt-4 grid grid-cols-2 gap-3 lg:grid-cols-4" data-testid="customer-kpis">
              <Kpi label="Spend (net of refunds)" value={usd(c.spend.netUsd)} exact={c.spend.netUsd} testId="customer-net" />
              <Kpi label="Payments" value={count(c.spend.payments)} note={`${usd(c.spend.paidUsd)} paid`} testId="customer-payments-count" />
              <Kpi
                label="Refunds"
                value={usd(c.spend.refundedUsd)}
                exact={c.spend.refundedUsd}
                note={`${count(c.spend.refunds)} refund${c.spend.refunds === 1 ? "" : "s"}`}
                testId="customer-refunded"
              />
              <Kpi
                label="Credit left"
                value={usd(c.creditLeftUsd)}
                exact={c.creditLeftUsd}
                note={`${usd(c.spend.drawnUsd)} drawn in ${count(c.spend.draws)} call${c.spend.draws === 1 ? "" : "s"}`}
                testId="customer-credit"
              />
            </div>
            <CreditHeldByInstances heldUsd={c.creditHeldByInstancesUsd} />
            <Section title="Who" testId="customer-identity">
              <Who c={c} />
            </Section>
            <Plans c={c} />
            <Payments c={c} />
          </>
        )}
      </Loaded>
    </>
  );
}
