"use client";

import Link from "next/link";
import { RAIL_HELP, railLabel, usd, utc } from "../../../../_components/format";
import { OperationName } from "../../../../_components/operation-name";
import { LINK, Section, TABLE_CLASS, TableScroll } from "../../../../_components/section";
import { ShortId } from "@/app/_components/short-id";
import { cardRefundWords } from "@/server/contracts/payment-words";
import { cardLabel } from "../../_components/card-label";
import { Field, TxLink, type Detail } from "./detail-parts";

/** Money first, as a seller used to Stripe reads a payment: what was paid, the fee, what was given back, the net. */
export function MoneySection({ p }: { p: Detail }) {
  const m = p.money;
  const implicit = p.rail === "credits";
  const wallet = !p.card && !implicit && p.rail !== null;
  const fee = m.feeUsd
    ? usd(m.feeUsd)
    : p.card
      ? "not reported by the processor yet"
      : wallet
        ? p.settlement.gasEth
          ? `none in USD (the settlement's gas, ${p.settlement.gasEth} ETH, was paid by the facilitator)`
          : "none in USD"
        : "none";
  return (
    <Section title="Money" testId="payment-money">
      <dl>
        <Field label="Amount" testId="money-amount">
          <span data-value={m.amountUsd}>{usd(m.amountUsd)}</span>
        </Field>
        <Field label={p.card ? "Processor fee" : "Fee"} testId="money-fee">
          {fee}
        </Field>
        {m.refundedUsd && (
          <Field label="Refunded" testId="money-refunded">
            <span data-value={m.refundedUsd}>-{usd(m.refundedUsd)}</span>
            {p.refunds.length > 1 && (
              <ul className="mt-1 text-xs text-slate-700" data-testid="money-refunds">
                {p.refunds.map((r) => (
                  <li key={r.seq} data-testid="money-refund">
                    {usd(r.amountUsd)} on {r.at.slice(0, 10)}
                    {r.processorStatus && r.processorStatus !== "succeeded" ? ` (${r.processorStatus})` : ""}
                  </li>
                ))}
              </ul>
            )}
          </Field>
        )}
        {p.partiallyRefunded && (
          <Field label="Left to refund" testId="money-remaining">
            <span data-value={p.remainingUsd}>{usd(p.remainingUsd)}</span>
          </Field>
        )}
        <Field label="Net" testId="money-net">
          {m.netUsd ? (
            <strong data-value={m.netUsd}>{usd(m.netUsd)}</strong>
          ) : implicit ? (
            "drawn from prepaid credit: the money came in with the plan purchase"
          ) : (
            "nothing moved yet"
          )}
        </Field>
      </dl>
    </Section>
  );
}

/** Who paid, how, for what: in a seller's words (a wallet's network and "USDC", never the token's contract address). */
export function Summary({ p }: { p: Detail }) {
  const s = p.settlement;
  return (
    <Section title="Payment" testId="payment-summary">
      <dl>
        <Field label="Payer" testId="detail-payer">
          {p.card ? (
            <span>
              {p.card.payerEmail && (
                <Link className={LINK} href={`/console/payments?q=${encodeURIComponent(p.card.payerEmail)}`} data-testid="detail-payer-email">
                  {p.card.payerEmail}
                </Link>
              )}
              {p.card.payerEmail ? " · " : ""}
              {cardLabel(p.card)}
            </span>
          ) : p.payer ? (
            <Link className={`${LINK} font-mono text-xs`} href={`/console/payments?payer=${encodeURIComponent(p.payer)}`}>
              {p.payer}
            </Link>
          ) : (
            "—"
          )}
        </Field>
        <Field label="Paid with">
          <span title={p.rail ? RAIL_HELP[p.rail] : undefined}>{railLabel(p.rail)}</span>
          {p.rail && RAIL_HELP[p.rail] && <span className="block text-xs text-slate-600">{RAIL_HELP[p.rail]}</span>}
        </Field>
        <Field label="Operation">
          <OperationName op={p.operation} testId="payment-detail-operation" />
          <span className="block font-mono text-xs text-slate-600" data-testid="binding-request">
            {p.binding.method} {p.binding.path}
            {p.binding.query ? `?${p.binding.query}` : ""}
          </span>
        </Field>
        {!p.card && p.binding.chain && (
          <Field label="Network">
            {p.binding.chain}, <span title={p.binding.asset ?? undefined}>{p.currency === "USD" ? "USDC" : p.currency}</span>
          </Field>
        )}
        {!p.card && s.transaction && (
          <Field label="Transaction" mono>
            <TxLink hash={s.transaction} url={s.transactionUrl} testId="settlement-tx" />
          </Field>
        )}
        <Field label="Created">{utc(p.createdAt)}</Field>
      </dl>
    </Section>
  );
}

/** The protocol's words, for a dispute or a developer: the request binding and the settlement queue. */
export function TechnicalDetails({ p }: { p: Detail }) {
  const s = p.settlement;
  return (
    <Section title="Technical details" testId="payment-technical">
      <details data-testid="payment-binding">
        <summary className="min-h-6 cursor-pointer text-sm text-slate-700">Request binding, settlement queue and upstream answer</summary>
        <p className="mt-2 mb-2 text-sm text-slate-700">
          The proof had to be made for exactly this request; a proof for another one is refused (payment_request_mismatch).
        </p>
        <dl data-testid="payment-settlement">
          <Field label="Binding hash" mono>
            {p.binding.hash}
          </Field>
          <Field label="Meter" mono>
            {p.meter ?? "—"}
          </Field>
          {!p.card && (
            <>
              <Field label="Pay to" mono>
                {p.binding.payTo ?? "—"}
              </Field>
              <Field label="Network and asset" mono>
                {p.binding.network ?? "—"} {p.binding.asset ?? ""}
              </Field>
            </>
          )}
          <Field label="402 expires">{utc(p.binding.expiresAt)}</Field>
          {p.card && (
            <Field label="Processor payment" mono>
              <TxLink hash={s.transaction} url={s.transactionUrl} testId="settlement-processor-payment" />
            </Field>
          )}
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
        </dl>
      </details>
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
          {card.processorPaymentId ? <ShortId value={card.processorPaymentId} what="processor payment id" /> : "—"}
        </Field>
        <Field label="Refund">
          {card.refund ? (
            <>
              <span title={`${card.refund.status}, ${card.refund.cause ?? ""}`}>{cardRefundWords(card.refund)}</span>
              {card.refund.refundId && (
                <>
                  {" "}
                  · <ShortId value={card.refund.refundId} what="processor refund id" />
                </>
              )}
            </>
          ) : (
            "none"
          )}
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
