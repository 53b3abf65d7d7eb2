"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "../../../providers";
import { BUTTON, BUTTON_SECONDARY, INPUT } from "../../../_components/section";

/**
 * Record a refund the seller already sent on chain: USDC from their payTo wallet back to the payer. The server
 * checks the transaction on chain before anything changes (server/payments/refund.ts).
 */
export function RefundForm({ payment, onDone }: { payment: { id: string; amountUsd: string; payer: string | null }; onDone: () => void }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const [transaction, setTransaction] = useState("");
  const record = useMutation(
    trpc.payments.recordRefund.mutationOptions({
      onSuccess: async () => {
        await Promise.all([
          qc.invalidateQueries({ queryKey: trpc.payments.list.pathKey() }),
          qc.invalidateQueries({ queryKey: trpc.payments.totals.queryKey() }),
          qc.invalidateQueries({ queryKey: trpc.payments.detail.queryKey({ id: payment.id }) }),
          qc.invalidateQueries({ queryKey: trpc.payments.refunds.pathKey() }),
          qc.invalidateQueries({ queryKey: trpc.audit.list.pathKey() }),
          qc.invalidateQueries({ queryKey: trpc.analytics.overview.pathKey() }),
        ]);
        onDone();
      },
    }),
  );
  return (
    <form
      className="flex flex-wrap items-end gap-3 rounded bg-slate-50 p-3 text-sm"
      data-testid="payment-refund-form"
      onSubmit={(e) => {
        e.preventDefault();
        record.reset();
        record.mutate({ paymentId: payment.id, transaction: transaction.trim() });
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
      <button data-testid="payment-refund-submit" className={BUTTON} disabled={record.isPending || !transaction.trim()}>
        {record.isPending ? "Checking on chain" : "Record refund"}
      </button>
      <button type="button" className={BUTTON_SECONDARY} onClick={onDone}>
        Cancel
      </button>
      {record.error && (
        <p role="alert" data-testid="payment-refund-error" className="w-full text-red-700">
          {record.error.message}
        </p>
      )}
    </form>
  );
}
