"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "../../../providers";

/**
 * Refund a card payment in full with one click: the card processor's refund, the ledger's refund row and the audit
 * row (server/payments/card/refund-card-payment.ts). A second click, or a retried request, returns the first result.
 */
export function CardRefundButton({ paymentId, label = "Refund card" }: { paymentId: string; label?: string }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const refund = useMutation(
    trpc.payments.refundCard.mutationOptions({
      onSuccess: () =>
        Promise.all([
          qc.invalidateQueries({ queryKey: trpc.payments.list.pathKey() }),
          qc.invalidateQueries({ queryKey: trpc.payments.totals.queryKey() }),
          qc.invalidateQueries({ queryKey: trpc.payments.detail.queryKey({ id: paymentId }) }),
          qc.invalidateQueries({ queryKey: trpc.payments.refunds.pathKey() }),
          qc.invalidateQueries({ queryKey: trpc.audit.list.pathKey() }),
          qc.invalidateQueries({ queryKey: trpc.analytics.overview.pathKey() }),
        ]),
    }),
  );
  return (
    <>
      <button
        className="text-xs text-indigo-700 underline disabled:opacity-50"
        data-testid="payment-card-refund"
        aria-label={`Refund card payment ${paymentId} in full`}
        disabled={refund.isPending}
        onClick={() => refund.mutate({ paymentId })}
      >
        {refund.isPending ? "Refunding" : label}
      </button>
      {refund.error && (
        <span role="alert" className="block text-xs text-red-700" data-testid="payment-card-refund-error">
          {refund.error.message}
        </span>
      )}
    </>
  );
}

/** "VISA •••• 4242 (test)": what a card payment shows in place of a wallet. */
export function cardLabel(card: { brand: string | null; last4: string | null; flow: string; processor: string }): string {
  return `${card.brand && card.last4 ? `${card.brand.toUpperCase()} •••• ${card.last4}` : card.flow}${card.processor === "test" ? " (test)" : ""}`;
}
