"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "../../../providers";
import { BUTTON, BUTTON_SECONDARY, INPUT } from "../../../_components/section";

/** A payment as the refund widget needs it: `refundInput` says what its rail asks of the seller (null: not refundable). */
export type RefundablePayment = { id: string; rail: string | null; amountUsd: string; payer: string | null; refundInput: "transaction" | "none" | null };

/**
 * The one refund widget, for every rail (one procedure, `payments.refund`): a rail that refunds through its processor
 * (card) needs one click; a wallet rail needs the transaction the seller sent the money back with, which the server
 * checks on chain before anything changes. A second click or a retried request returns the first result.
 */
export function Refund({ payment, label, onDone }: { payment: RefundablePayment; label?: string; onDone?: () => void }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const [transaction, setTransaction] = useState("");
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
        onDone?.();
      },
    }),
  );
  if (payment.refundInput === null) return null;
  if (payment.refundInput === "none")
    return (
      <>
        <button
          className="text-xs text-indigo-700 underline disabled:opacity-50"
          data-testid="payment-card-refund"
          aria-label={`Refund ${payment.rail ?? ""} payment ${payment.id} in full`}
          disabled={refund.isPending}
          onClick={() => refund.mutate({ paymentId: payment.id })}
        >
          {refund.isPending ? "Refunding" : (label ?? `Refund ${payment.rail ?? ""}`)}
        </button>
        {refund.error && (
          <span role="alert" className="block text-xs text-red-700" data-testid="payment-card-refund-error">
            {refund.error.message}
          </span>
        )}
      </>
    );
  return (
    <form
      className="flex flex-wrap items-end gap-3 rounded bg-slate-50 p-3 text-sm"
      data-testid="payment-refund-form"
      onSubmit={(e) => {
        e.preventDefault();
        refund.reset();
        refund.mutate({ paymentId: payment.id, transaction: transaction.trim() });
      }}
    >
      <p className="w-full text-slate-600">
        Send {payment.amountUsd} USDC (or more; {payment.amountUsd} is recorded) from your payTo wallet to the payer{" "}
        <span className="font-mono text-xs break-all">{payment.payer}</span> on Base, then paste the transaction hash. It is checked on chain; the payment
        becomes refunded and its amount leaves revenue.
      </p>
      <label className="grid grow gap-1">
        <span className="text-slate-600">Refund transaction hash</span>
        <input
          data-testid="payment-refund-hash"
          className={`${INPUT} font-mono text-xs`}
          value={transaction}
          onChange={(e) => setTransaction(e.target.value)}
          placeholder="0x…"
          autoFocus
        />
      </label>
      <button data-testid="payment-refund-submit" className={BUTTON} disabled={refund.isPending || !transaction.trim()}>
        {refund.isPending ? "Checking on chain" : "Record refund"}
      </button>
      <button type="button" className={BUTTON_SECONDARY} onClick={onDone}>
        Cancel
      </button>
      {refund.error && (
        <p role="alert" data-testid="payment-refund-error" className="w-full text-red-700">
          {refund.error.message}
        </p>
      )}
    </form>
  );
}
