"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useId, useState } from "react";
import { consoleRefundAmount, firstIssue, refundAmountMicros } from "@/server/contracts/console";
import { useTRPC } from "../../../providers";
import { ConfirmDialog } from "../../../_components/confirm-dialog";
import { useIsOwner } from "../../../_components/owner-only";
import { shortId } from "@/app/_components/short-id";
import { usd } from "../../../_components/format";
import { BUTTON, INPUT, LINK_BUTTON } from "../../../_components/section";

/** A payment as the refund widget needs it: `refundInput` says what its rail asks of the seller (null: not refundable). */
export type RefundablePayment = {
  id: string;
  rail: string | null;
  amountUsd: string;
  payer: string | null;
  refundInput: "transaction" | "none" | null;
  card?: { brand: string | null; last4: string | null } | null;
  /** The processor's fee for this payment, when known (the payment's page): it is not returned by a refund. */
  feeUsd?: string | null;
  /** The rail refunds in part (card), what was refunded so far and what is left. */
  refundsInPart?: boolean;
  refundedUsd?: string;
  remainingUsd?: string;
};

/** "0.500000" -> "0.50": the amount field's default, dollars and cents. */
const cents = (v: string) => (Number(v) || 0).toFixed(2);
const toMicros = (v: string) => BigInt(Math.round(Number(v) * 1e6));

/** Short reasons a seller picks from (recorded in the audit row with any note); "Other" asks for words. */
export const REFUND_REASONS = ["Requested by the payer", "Duplicate payment", "Data was wrong or missing", "Charged in error", "Other"] as const;

/**
 * The one refund widget, for every rail (one procedure, `payments.refund`), behind the console's one confirmation
 * (`ConfirmDialog`): the amount, a reason for the audit log, and what the payer will see. A rail that refunds through
 * its processor (card) refunds in part too, like Stripe's: an amount, by default all that is left, checked as it is
 * typed with the server's rule (server/contracts/console.ts); several partial refunds may follow until nothing is left.
 * A wallet rail needs the transaction the seller sent the money back with, which the server checks on chain before
 * anything changes, and refunds in full. Each opening of the dialog is one request key: a second confirm or a retried
 * request returns the first result.
 */
export function Refund({ payment, label, big }: { payment: RefundablePayment; label?: string; big?: boolean }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const owner = useIsOwner();
  const [open, setOpen] = useState(false);
  const [transaction, setTransaction] = useState("");
  const [reason, setReason] = useState<(typeof REFUND_REASONS)[number]>(REFUND_REASONS[0]);
  const [note, setNote] = useState("");
  const [amountText, setAmountText] = useState("");
  const [requestKey, setRequestKey] = useState("");
  const ids = { reason: useId(), note: useId() };
  const refund = useMutation(
    trpc.payments.refund.mutationOptions({
      onSuccess: async () => {
        await Promise.all([
          qc.invalidateQueries({ queryKey: trpc.payments.list.pathKey() }),
          qc.invalidateQueries({ queryKey: trpc.payments.totals.queryKey() }),
          qc.invalidateQueries({ queryKey: trpc.payments.detail.queryKey({ id: payment.id }) }),
          qc.invalidateQueries({ queryKey: trpc.payments.refunds.pathKey() }),
          qc.invalidateQueries({ queryKey: trpc.audit.list.pathKey() }),
          qc.invalidateQueries({ queryKey: trpc.analytics.overview.pathKey() }),
        ]);
        setOpen(false);
      },
    }),
  );
  // A viewer cannot refund (the server refuses it too): no button to press.
  if (payment.refundInput === null || !owner) return null;
  const wallet = payment.refundInput === "transaction";
  const partial = Boolean(payment.refundsInPart) && !wallet;
  const remainingUsd = payment.remainingUsd ?? payment.amountUsd;
  const amountError = partial ? firstIssue(consoleRefundAmount(toMicros(remainingUsd)).safeParse(amountText)) : null;
  const typed = partial && !amountError ? refundAmountMicros(amountText) : null;
  const whole = toMicros(remainingUsd) === toMicros(payment.amountUsd);
  const amount = typed !== null ? usd((Number(typed) / 1e6).toFixed(6)) : usd(remainingUsd);
  const all = !partial || (typed !== null && typed === toMicros(remainingUsd));
  const words = note.trim() ? `${reason}: ${note.trim()}` : reason;
  const card = payment.card;
  const visible = label ?? (wallet ? "Record refund" : "Refund");
  return (
    <>
      <button
        type="button"
        className={big ? BUTTON : LINK_BUTTON}
        data-testid={wallet ? "payment-refund-open" : "payment-card-refund"}
        // A row's "Refund" says which payment (many on a page); a labelled button keeps its visible words as its name.
        aria-label={visible === "Refund" || visible === "Record refund" ? `${visible} ${amount}, payment ${shortId(payment.id)}` : undefined}
        onClick={() => {
          refund.reset();
          setAmountText(cents(remainingUsd));
          setRequestKey(crypto.randomUUID());
          setOpen(true);
        }}
      >
        {visible}
      </button>
      <ConfirmDialog
        open={open}
        title={`Refund ${amount} to the payer?`}
        testId="payment-refund-dialog"
        confirmTestId="payment-refund-submit"
        confirmLabel={wallet ? "Check on chain and record" : `Refund ${amount}`}
        danger
        pending={refund.isPending}
        confirmDisabled={(wallet && !transaction.trim()) || (reason === "Other" && !note.trim()) || amountError !== null}
        error={refund.error?.message ?? null}
        onClose={() => setOpen(false)}
        onConfirm={() =>
          refund.mutate({
            paymentId: payment.id,
            reason: words,
            requestKey,
            ...(wallet ? { transaction: transaction.trim() } : {}),
            ...(partial ? { amount: amountText.trim() } : {}),
          })
        }
        changes={[
          { label: "Refunded", before: usd(payment.refundedUsd ?? "0"), after: `${amount} more back to the payer` },
          { label: "State", before: whole ? "Succeeded" : "Partially refunded", after: all ? "Refunded" : "Partially refunded" },
        ]}
        fields={
          <div className="grid gap-3 text-sm">
            <RefundAmount
              partial={partial}
              payment={payment}
              amount={amount}
              amountText={amountText}
              setAmountText={setAmountText}
              amountError={amountError}
              whole={whole}
              remainingUsd={remainingUsd}
            />
            <p data-testid="payment-refund-fee" className="text-slate-700">
              {wallet
                ? "You send the USDC yourself, so the network fee (gas) of that transfer is yours; the fee of the original settlement is not returned."
                : `The card processor keeps the fee it charged for this payment${payment.feeUsd ? ` (${usd(payment.feeUsd)})` : ""}: a refund does not return it to you.`}
            </p>
            <label className="grid gap-1" htmlFor={ids.reason}>
              <span className="text-slate-700">Reason (kept in the audit log)</span>
              <select
                id={ids.reason}
                className={INPUT}
                value={reason}
                onChange={(e) => setReason(e.target.value as typeof reason)}
                data-testid="payment-refund-reason"
              >
                {REFUND_REASONS.map((r) => (
                  <option key={r}>{r}</option>
                ))}
              </select>
            </label>
            <label className="grid gap-1" htmlFor={ids.note}>
              <span className="text-slate-700">{reason === "Other" ? "Why (required)" : "Note (optional)"}</span>
              <input id={ids.note} className={INPUT} maxLength={300} value={note} onChange={(e) => setNote(e.target.value)} data-testid="payment-refund-note" />
            </label>
            {wallet && <WalletTransfer payment={payment} amount={amount} transaction={transaction} setTransaction={setTransaction} />}
          </div>
        }
        otherSideSees={{
          who: "the payer",
          what: wallet ? (
            <span data-testid="payment-refund-payer-sees">
              The USDC transfer you sent, from your payTo wallet to their wallet, on Base. The payment&apos;s status (statusUrl) reads refunded and the same
              proof is refused as refunded.
            </span>
          ) : (
            <span data-testid="payment-refund-payer-sees">
              A refund of {amount} on the statement of their card
              {card?.last4 ? ` (${card.brand ?? "card"} ending ${card.last4})` : ""}, usually within 5 to 10 business days. The payment&apos;s status reads
              refunded.
            </span>
          ),
        }}
      />
    </>
  );
}

/** The amount: typed, checked as typed, for a rail that refunds in part; otherwise the whole payment, said so. */
function RefundAmount(p: {
  partial: boolean;
  payment: RefundablePayment;
  amount: string;
  amountText: string;
  setAmountText: (v: string) => void;
  amountError: string | null;
  whole: boolean;
  remainingUsd: string;
}) {
  const { payment, amount, amountText, setAmountText, amountError, whole, remainingUsd } = p;
  const ids = { amount: useId(), amountError: useId() };
  return p.partial ? (
    <div className="grid gap-1">
      <label htmlFor={ids.amount} className="text-slate-700">
        Amount to refund, in dollars
      </label>
      <input
        id={ids.amount}
        className={INPUT}
        inputMode="decimal"
        value={amountText}
        onChange={(e) => setAmountText(e.target.value)}
        aria-invalid={amountError !== null}
        aria-describedby={`${ids.amountError} ${ids.amount}-left`}
        data-testid="payment-refund-amount-input"
      />
      <p id={`${ids.amount}-left`} className="text-slate-700" data-testid="payment-refund-remaining">
        {usd(remainingUsd)} of {usd(payment.amountUsd)} left to refund{whole ? "" : ` (${usd(payment.refundedUsd ?? "0")} refunded already)`}. Less is a partial
        refund; you can refund the rest later.
      </p>
      <p id={ids.amountError} className="text-red-800" role="alert" data-testid="payment-refund-amount-error">
        {amountError ?? ""}
      </p>
    </div>
  ) : (
    <p data-testid="payment-refund-amount">
      Amount: <strong>{amount}</strong>, in full. A wallet refund reverses the whole transfer (partial refunds are not recorded on chain), and the payment then
      stays refunded.
    </p>
  );
}

/** A wallet refund: the transfer the seller sends first, and its hash, which the server checks on chain. */
function WalletTransfer({
  payment,
  amount,
  transaction,
  setTransaction,
}: {
  payment: RefundablePayment;
  amount: string;
  transaction: string;
  setTransaction: (v: string) => void;
}) {
  const hash = useId();
  return (
    <>
      <p className="text-slate-700">
        First send {payment.amountUsd.replace(/\.?0+$/, "")} USDC (or more; {amount} is recorded) from your payTo wallet to the payer{" "}
        <span className="font-mono text-xs [overflow-wrap:anywhere]">{payment.payer}</span> on Base, then paste the transaction hash. Nothing changes until the
        chain shows that transfer.
      </p>
      <label className="grid gap-1" htmlFor={hash}>
        <span className="text-slate-700">Refund transaction hash</span>
        <input
          id={hash}
          data-testid="payment-refund-hash"
          className={`${INPUT} font-mono text-xs`}
          value={transaction}
          onChange={(e) => setTransaction(e.target.value)}
          placeholder="0x…"
        />
      </label>
    </>
  );
}
