// What a replay of a paid request is answered with: the answer kept when it was paid for (keep-answer.ts), or why
// there is none. Never the upstream again.
import { findDeliveredAnswer } from "./delivered-answers.queries";

export type KeptAnswer =
  | { type: "kept"; status: number; headers: [string, string][]; body: Uint8Array | null; receipt: string | null }
  /**
   * too_large, seller_full: delivered once and not kept (the caps); expired: past the replay window; not_recorded: no
   * answer was kept for this payment (charged before answers were kept, or the keeping failed).
   */
  | { type: "not_kept"; reason: "too_large" | "seller_full" | "expired" | "not_recorded" };

export async function findKeptAnswer(paymentId: string): Promise<KeptAnswer> {
  const row = await findDeliveredAnswer(paymentId);
  if (!row) return { type: "not_kept", reason: "not_recorded" };
  if (row.expired) return { type: "not_kept", reason: "expired" };
  if (row.not_kept) return { type: "not_kept", reason: row.not_kept };
  return { type: "kept", status: row.status, headers: row.headers, body: row.body ? new Uint8Array(row.body) : null, receipt: row.receipt };
}
