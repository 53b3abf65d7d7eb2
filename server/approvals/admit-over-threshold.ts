// A paid call over its person's approval threshold is held, not refused: the agent gets `approval_required` with the
// approval's URL, id and expiry, the person an email, and the agent's retry of the same request (same credential,
// binding and amount) is served once the person approves, exactly once (a conditional UPDATE spends the approval). A
// call that is not charged after all gives its approval back (`restore`). Unanswered, it expires and declines; a
// declined request keeps answering `approval_declined` for APPROVAL_TTL_MS after, then may ask again (one email per
// request per window at most: concurrent held calls share one pending row). The proof that spent an approval is a
// replay when it comes again (a dropped connection, a retry): it is let through to its rail, which serves the answer it
// paid for and charges nothing; it never spends or asks for another approval.
import { AppError } from "../errors";
import { newId } from "../lib/ids";
import { microsToUsd } from "../lib/money";
import type { PaidCall } from "../payments/paid-call";
import {
  consumeApproved,
  expireApproval,
  findLatestApproval,
  findSpentByProof,
  insertPendingApproval,
  restoreApproved,
  type ApprovalRow,
} from "./approvals.queries";
import { notifyPerson } from "./notify-person";

/** How long a person has to answer, and how long an approved call waits for the agent's retry. */
export const APPROVAL_TTL_MS = 15 * 60_000;

export type ThresholdAdmission =
  | { type: "approved"; restore(): Promise<void> }
  /** The proof that spent an approval, again: only its rail's replay may serve it; anything else answers `error`. */
  | { type: "replay"; error: AppError }
  | { type: "held"; error: AppError };

export function approvalUrl(origin: string, id: string): string {
  return `${origin}/account/approvals/${id}`;
}

function heldError(call: PaidCall, a: Pick<ApprovalRow, "id" | "expiresAt" | "thresholdMicros">): AppError {
  return new AppError("approval_required", {
    detail:
      "this call is over the approval threshold its person set; they were emailed a link to approve or decline it. Retry this same request once they approve: it is served and charged once. Unanswered, it declines at expiresAt",
    extra: {
      approvalId: a.id,
      approvalUrl: approvalUrl(call.origin, a.id),
      expiresAt: a.expiresAt.toISOString(),
      amountUsd: microsToUsd(call.amountMicros),
      thresholdUsd: microsToUsd(a.thresholdMicros),
    },
  });
}

function declinedError(a: ApprovalRow, until: number): AppError {
  return new AppError("approval_declined", {
    reason: a.status === "expired" ? "expired" : "declined",
    detail:
      a.status === "expired"
        ? "its person did not answer this call's approval in time, so it is declined; do not retry it before retryAfter"
        : "its person declined this call; do not retry it before retryAfter",
    extra: { approvalId: a.id, retryAfter: new Date(until).toISOString() },
  });
}

export async function admitOverThreshold(input: {
  call: PaidCall;
  credentialId: string;
  humanId: string;
  thresholdMicros: bigint;
  /** The SHA-256 of the call's payment proof, or null when it has none of its own (a plan draw with no Idempotency-Key). */
  proofHash: string | null;
}): Promise<ThresholdAdmission> {
  const { call, proofHash } = input;
  const key = { credentialId: input.credentialId, binding: call.binding, amountMicros: call.amountMicros };
  const spent = proofHash ? await findSpentByProof(key, proofHash) : null;
  if (spent) return { type: "replay", error: heldError(call, spent) };
  const used = await consumeApproved(key, proofHash);
  if (used) return { type: "approved", restore: () => restoreApproved(used) };
  const now = Date.now();
  let latest = await findLatestApproval(key);
  if (latest?.status === "pending" && latest.expiresAt.getTime() <= now) {
    await expireApproval(latest.id);
    latest = { ...latest, status: "expired", decidedAt: latest.expiresAt };
  }
  if (latest?.status === "pending") return { type: "held", error: heldError(call, latest) };
  if (latest && (latest.status === "declined" || latest.status === "expired")) {
    const until = (latest.decidedAt ?? latest.expiresAt).getTime() + APPROVAL_TTL_MS;
    if (until > now) return { type: "held", error: declinedError(latest, until) };
  }
  const approval = {
    id: newId("apr"),
    sellerId: call.sellerId,
    humanId: input.humanId,
    credentialId: input.credentialId,
    binding: call.binding,
    amountMicros: call.amountMicros,
    thresholdMicros: input.thresholdMicros,
    method: call.method,
    path: call.path,
    query: call.canonicalQuery,
    operationKey: call.operationKey,
    expiresAt: new Date(now + APPROVAL_TTL_MS),
  };
  const created = await insertPendingApproval(approval);
  if (!created) {
    // Another held copy of this call made it a moment ago: the same approval (and its one email).
    const shared = await findLatestApproval(key);
    return { type: "held", error: heldError(call, shared ?? approval) };
  }
  notifyPerson({ to: created.email, approval, url: approvalUrl(call.origin, approval.id) });
  return { type: "held", error: heldError(call, approval) };
}
