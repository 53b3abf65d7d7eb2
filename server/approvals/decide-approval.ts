// The person's answer on the approval page: approve (the agent's retry of the same request is then served once, within
// APPROVAL_TTL_MS) or decline. Only the person the approval is for, only while it is pending and unexpired.
import { AppError } from "../errors";
import { APPROVAL_TTL_MS } from "./admit-over-threshold";
import { decideApproval as decideRow, findApproval } from "./approvals.queries";

export async function answerApproval(person: { humanId: string; sellerId: string }, approvalId: string, approve: boolean): Promise<void> {
  const moved = await decideRow({ id: approvalId, humanId: person.humanId, approve, useUntil: new Date(Date.now() + APPROVAL_TTL_MS) });
  if (moved) return;
  const row = await findApproval(approvalId);
  if (!row || row.humanId !== person.humanId || row.sellerId !== person.sellerId)
    throw new AppError("not_found", { detail: "no approval of yours has that id at this storefront" });
  throw new AppError("approval_declined", {
    reason: "already_answered",
    detail: row.status === "pending" ? "this approval expired before your answer; the call is declined" : `this approval is already ${row.status}`,
  });
}
