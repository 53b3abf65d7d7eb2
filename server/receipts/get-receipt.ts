// GET /payments/{id}/receipt: the signed receipt of the answer that charged a payment, for the payer that lost the
// header and for the seller answering a dispute. A payment that was never charged (released, unpaid) has none.
import "server-only";
import { AppError } from "../errors";
import { findReceipt } from "../payments/payments.queries";

export async function getReceipt(sellerId: string, paymentId: string, origin: string): Promise<Record<string, unknown>> {
  const p = await findReceipt(sellerId, paymentId);
  if (!p) throw new AppError("payment_unknown", { detail: "no payment with this id at this seller", extra: { payment_id: paymentId } });
  if (!p.receipt)
    throw new AppError("not_found", {
      detail: "this payment has no receipt: only a charged answer is receipted (see its state at /payments/{id})",
      extra: { payment_id: paymentId, status: p.status },
    });
  return { payment_id: paymentId, receipt: p.receipt, jwks_uri: `${origin}/oauth2/jwks.json` };
}
