"use client";

import Link from "next/link";
import { usd, utc } from "../../../../_components/format";
import { LINK, Section, TABLE_CLASS, TableScroll } from "../../../../_components/section";
import { cardLabel } from "../../_components/card-label";
import { Field, TxLink, type Detail } from "./detail-parts";

export function Binding({ p }: { p: Detail }) {
  return (
    <Section title="Request binding" testId="payment-binding">
      <p className="mb-2 text-sm text-slate-700">
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
          {usd(p.amountUsd)} {p.currency} (meter {p.meter ?? "—"})
        </Field>
        <Field label="Pay to" mono>
          {p.binding.payTo ?? "—"}
        </Field>
        <Field label="Network and asset">
          {p.binding.chain ?? "—"} <span className="font-mono text-xs">{p.binding.asset ?? ""}</span>
        </Field>
        <Field label="Payer" mono testId="detail-payer">
          {p.payer ? (
            <Link className={LINK} href={`/console/payments?payer=${encodeURIComponent(p.payer)}`}>
              {p.payer}
            </Link>
          ) : (
            "—"
          )}
        </Field>
        <Field label="402 expires">{utc(p.binding.expiresAt)}</Field>
      </dl>
    </Section>
  );
}

export function Settlement({ p }: { p: Detail }) {
  const s = p.settlement;
  return (
    <Section title="Settlement" testId="payment-settlement">
      <dl>
        <Field label={p.card ? "Processor payment" : "Transaction"} mono>
          <TxLink hash={s.transaction} url={s.transactionUrl} testId="settlement-tx" />
        </Field>
        <Field label="Upstream answered">{s.upstreamStatus ?? "—"}</Field>
        <Field label="Outbox">
          {s.outbox
            ? `${s.outbox.status}, ${s.outbox.attempts} attempt${s.outbox.attempts === 1 ? "" : "s"}, ${s.outbox.units} unit${s.outbox.units === 1 ? "" : "s"}${s.outbox.lastError ? ` (last error: ${s.outbox.lastError})` : ""}`
            : "no charge decided"}
        </Field>
        {!p.card && (
          <Field label="Gas paid (facilitator)" testId="settlement-gas">
            {s.gasEth ? `${s.gasEth} ETH` : "not known"}
          </Field>
        )}
        {s.feeUsd && <Field label="Processor fee">{usd(s.feeUsd)}</Field>}
      </dl>
    </Section>
  );
}

export function CardSection({ card }: { card: NonNullable<Detail["card"]> }) {
  return (
    <Section title="Card" testId="payment-card-detail">
      <dl>
        <Field label="Card">{cardLabel(card)}</Field>
        <Field label="Flow">
          {card.flow === "checkout" ? "hosted checkout (a person paid on our page)" : "MPP card method (the agent's shared payment token)"}
        </Field>
        <Field label="Processor" mono>
          {card.processor === "test" ? "built-in test processor" : card.processor}
        </Field>
        <Field label="Processor payment id" mono testId="card-processor-id">
          {card.processorPaymentId ?? "—"}
        </Field>
        <Field label="Refund">
          {card.refund ? `${card.refund.status} (${card.refund.cause?.replace("_", " ")})${card.refund.refundId ? ` · ${card.refund.refundId}` : ""}` : "none"}
        </Field>
      </dl>
    </Section>
  );
}

export function RefundSection({ p }: { p: Detail }) {
  if (!p.refund) return null;
  return (
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
  );
}

export function AuditSection({ p }: { p: Detail }) {
  return (
    <Section title="Audit" testId="payment-audit">
      {p.audit.length === 0 ? (
        <p className="text-sm text-slate-600">No console change recorded for this payment.</p>
      ) : (
        <TableScroll label="Audit of this payment">
          <table className={TABLE_CLASS}>
            <thead className="text-slate-600">
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
                    {a.fields.map((c) => (
                      <span key={c.field} className="mr-2 text-xs">
                        {c.label} {c.before} → {c.after}
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
  );
}
