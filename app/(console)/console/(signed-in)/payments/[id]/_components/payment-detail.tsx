"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useState, type ReactNode } from "react";
import { useTRPC } from "../../../../providers";
import { usd, utc } from "../../../../_components/format";
import { StateBadge } from "../../../../_components/state-badge";
import { BUTTON, Loaded, PageHeader, Section, TABLE_CLASS, TableScroll } from "../../../../_components/section";
import { cardLabel } from "../../_components/card-label";
import { Refund } from "../../_components/refund";

function Field({ label, children, mono, testId }: { label: string; children: ReactNode; mono?: boolean; testId?: string }) {
  return (
    <div className="grid gap-0.5 py-1.5 sm:grid-cols-[12rem_1fr] sm:gap-3">
      <dt className="text-sm text-slate-500">{label}</dt>
      <dd className={`min-w-0 text-sm break-all ${mono ? "font-mono text-xs" : ""}`} data-testid={testId}>
        {children}
      </dd>
    </div>
  );
}

function TxLink({ hash, url, testId }: { hash: string | null; url: string | null; testId: string }) {
  if (!hash) return <span>—</span>;
  return url ? (
    <a href={url} target="_blank" rel="noreferrer" className="text-indigo-700 hover:underline" data-testid={testId}>
      {hash}
    </a>
  ) : (
    <span data-testid={testId}>{hash}</span>
  );
}

export function PaymentDetail({ id }: { id: string }) {
  const trpc = useTRPC();
  const q = useQuery(trpc.payments.detail.queryOptions({ id }, { retry: false }));
  const [refunding, setRefunding] = useState(false);
  return (
    <>
      <p className="text-sm">
        <Link href="/console/payments" className="text-indigo-700 hover:underline">
          ← Payments
        </Link>
      </p>
      <Loaded query={q} what="the payment">
        {(p) => (
          <div data-testid="payment-detail">
            <div className="mt-2">
              <PageHeader
                title={`${usd(p.amountUsd)} · ${p.operation}`}
                actions={
                  p.refundInput === "none" ? (
                    <Refund payment={p} label={`Refund ${p.rail} in full`} />
                  ) : p.refundInput === "transaction" && !refunding ? (
                    <button className={BUTTON} onClick={() => setRefunding(true)} data-testid="payment-refund-open">
                      Record refund
                    </button>
                  ) : null
                }
              >
                <span className="font-mono text-xs" data-testid="payment-id">
                  {p.id}
                </span>{" "}
                <StateBadge status={p.status} settling={p.settling} /> {p.rail ? `on ${p.rail}` : "not paid"} · created {utc(p.createdAt)}
              </PageHeader>
            </div>
            {refunding && (
              <div className="mt-4">
                <Refund payment={p} onDone={() => setRefunding(false)} />
              </div>
            )}

            <Section title="Timeline" testId="payment-timeline">
              <ol className="relative ml-2 border-l border-slate-200">
                {p.timeline.map((t, i) => (
                  <li key={`${t.state}-${i}`} className="mb-3 ml-4" data-testid={`timeline-${t.state}`}>
                    <span className="absolute -left-1.5 mt-1.5 h-3 w-3 rounded-full border border-white bg-indigo-500" aria-hidden />
                    <p className="text-sm">
                      <span className="font-medium">{t.state}</span> <span className="text-xs text-slate-500">{t.at ? utc(t.at) : "time not kept"}</span>
                    </p>
                    {t.note && <p className="text-sm text-slate-600">{t.note}</p>}
                  </li>
                ))}
              </ol>
            </Section>

            <Section title="Request binding" testId="payment-binding">
              <p className="mb-2 text-sm text-slate-600">
                The proof had to be made for exactly this request; a proof for another one is refused (payment_request_mismatch).
              </p>
              <dl>
                <Field label="Request" mono testId="binding-request">
                  {p.binding.method} {p.binding.path}
                  {p.binding.query ? `?${p.binding.query}` : ""}
                </Field>
                <Field label="Binding hash" mono>
                  {p.binding.hash}
                </Field>
                <Field label="Amount">
                  {p.amountUsd} {p.currency} (meter {p.meter ?? "—"})
                </Field>
                <Field label="Pay to" mono>
                  {p.binding.payTo ?? "—"}
                </Field>
                <Field label="Network and asset" mono>
                  {p.binding.network ?? "—"} {p.binding.asset ?? ""}
                </Field>
                <Field label="Payer" mono testId="detail-payer">
                  {p.payer ? (
                    <Link className="text-indigo-700 hover:underline" href={`/console/payments?payer=${encodeURIComponent(p.payer)}`}>
                      {p.payer}
                    </Link>
                  ) : (
                    "—"
                  )}
                </Field>
                <Field label="Challenge expires">{utc(p.binding.expiresAt)}</Field>
              </dl>
            </Section>

            <Section title="Settlement" testId="payment-settlement">
              <dl>
                <Field label="Transaction" mono>
                  <TxLink hash={p.settlement.transaction} url={p.settlement.transactionUrl} testId="settlement-tx" />
                </Field>
                <Field label="Upstream answered">{p.settlement.upstreamStatus ?? "—"}</Field>
                <Field label="Outbox">
                  {p.settlement.outbox
                    ? `${p.settlement.outbox.status}, ${p.settlement.outbox.attempts} attempt${p.settlement.outbox.attempts === 1 ? "" : "s"}, ${p.settlement.outbox.units} unit${p.settlement.outbox.units === 1 ? "" : "s"}${p.settlement.outbox.lastError ? ` (last error: ${p.settlement.outbox.lastError})` : ""}`
                    : "no charge decided"}
                </Field>
                <Field label="Gas paid (facilitator)" testId="settlement-gas">
                  {p.settlement.gasEth ? `${p.settlement.gasEth} ETH` : "not known"}
                </Field>
                {p.settlement.feeUsd && <Field label="Provider fee">{usd(p.settlement.feeUsd)}</Field>}
              </dl>
            </Section>

            {p.card && (
              <Section title="Card" testId="payment-card-detail">
                <dl>
                  <Field label="Card">{cardLabel(p.card)}</Field>
                  <Field label="Flow">
                    {p.card.flow === "checkout" ? "hosted checkout (a person paid on our page)" : "MPP card method (the agent's shared payment token)"}
                  </Field>
                  <Field label="Processor" mono>
                    {p.card.processor === "test" ? "built-in test processor" : p.card.processor}
                  </Field>
                  <Field label="Processor payment id" mono testId="card-processor-id">
                    {p.card.processorPaymentId ?? "—"}
                  </Field>
                  <Field label="Refund">
                    {p.card.refund
                      ? `${p.card.refund.status} (${p.card.refund.cause?.replace("_", " ")})${p.card.refund.refundId ? ` · ${p.card.refund.refundId}` : ""}`
                      : "none"}
                  </Field>
                </dl>
              </Section>
            )}

            {p.refund && (
              <Section title="Refund" testId="payment-refund">
                <dl>
                  <Field label="Amount">{usd(p.refund.amountUsd)}</Field>
                  <Field label="Transaction" mono>
                    <TxLink hash={p.refund.transaction} url={p.refund.transactionUrl} testId="refund-tx" />
                    {p.refund.logIndex !== null ? ` (log ${p.refund.logIndex})` : ""}
                  </Field>
                  <Field label="Recorded">{utc(p.refund.at)}</Field>
                </dl>
              </Section>
            )}

            <Section title="Audit" testId="payment-audit">
              {p.audit.length === 0 ? (
                <p className="text-sm text-slate-500">No console change recorded for this payment.</p>
              ) : (
                <TableScroll>
                  <table className={TABLE_CLASS}>
                    <thead className="text-slate-500">
                      <tr>
                        <th>When</th>
                        <th>Who</th>
                        <th>Change</th>
                      </tr>
                    </thead>
                    <tbody>
                      {p.audit.map((a) => (
                        <tr key={a.id} className="border-t border-slate-100 align-top">
                          <td className="py-1.5 font-mono text-xs whitespace-nowrap">{utc(a.at)}</td>
                          <td>{a.actor ?? "system"}</td>
                          <td>
                            {a.label}:{" "}
                            {a.changes.map((c) => (
                              <span key={c.field} className="mr-2 font-mono text-xs">
                                {c.field} {c.before} → {c.after}
                              </span>
                            ))}
                          </td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </TableScroll>
              )}
            </Section>
          </div>
        )}
      </Loaded>
    </>
  );
}
