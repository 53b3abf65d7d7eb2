// The seller's refund from the console, for every rail: the payment's rail refunds it (its `refund` capability: the
// wallet rails record the transfer the seller sent back on chain, the card rail asks its processor), or says it
// cannot. One procedure and one widget in the console, whatever the rail.
import { AppError, invalidParameter } from "../errors";
import { isPaid, PAID_STATES } from "./payment-state";
import { findPayment } from "./payments.queries";
import { RAILS } from "./rails";
import type { RefundOutcome, RefundRequest } from "./rails/rail";

export async function refundPayment(r: RefundRequest): Promise<RefundOutcome> {
  const p = await findPayment(r.sellerId, r.paymentId);
  // Another seller's payment id matches nothing: indistinguishable from a missing one.
  if (!p) throw new AppError("not_found", { detail: "no such payment" });
  const rail = RAILS.find((x) => x.name === p.rail);
  if (rail?.refund && r.amount !== undefined && !rail.refund.partial)
    throw invalidParameter("amount", `payment ${p.id} was paid with ${p.rail}, which refunds in full only: send no amount`);
  if (rail?.refund) return rail.refund.refund(r);
  if (!isPaid(p.status))
    throw new AppError("payment_not_refundable", {
      detail: `payment ${p.id} is ${p.status}: only a paid payment (${PAID_STATES.join(" or ")}) can be refunded`,
      extra: { payment_id: p.id, status: p.status },
    });
  throw new AppError("invalid_request", { detail: `payment ${p.id} was paid with ${p.rail}, which refunds nothing here` });
}

/** What the console's refund widget asks the seller for, per payment: null when it cannot be refunded here. */
export function refundInput(p: { status: string; rail: string | null }): "transaction" | "none" | null {
  if (!(PAID_STATES as readonly string[]).includes(p.status)) return null;
  const refund = RAILS.find((x) => x.name === p.rail)?.refund;
  return refund ? (refund.needs ?? "none") : null;
}

/** Whether the payment's rail refunds part of a payment (the widget then asks for an amount). */
export function refundsInPart(rail: string | null): boolean {
  return RAILS.find((x) => x.name === rail)?.refund?.partial === true;
}
