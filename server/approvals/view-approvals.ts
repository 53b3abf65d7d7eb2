// What the person reads of approvals: one (the page the email links to) and their recent ones, with a pending one past
// its time shown as expired (declined), as the paid path treats it.
import { microsToUsd } from "../lib/money";
import { findApproval, findPersonApprovals, type ApprovalRow } from "./approvals.queries";

export type ApprovalView = {
  id: string;
  humanId: string;
  email: string;
  sellerId: string;
  credentialId: string;
  amountUsd: string;
  thresholdUsd: string;
  request: string;
  operation: string;
  state: "pending" | "approved" | "declined" | "expired" | "used";
  expiresAt: string;
  createdAt: string;
};

function view(r: ApprovalRow, now: number): ApprovalView {
  const expired = r.status === "pending" && r.expiresAt.getTime() <= now;
  return {
    id: r.id,
    humanId: r.humanId,
    email: r.email,
    sellerId: r.sellerId,
    credentialId: r.credentialId,
    amountUsd: microsToUsd(r.amountMicros),
    thresholdUsd: microsToUsd(r.thresholdMicros),
    request: `${r.method} ${r.path}${r.query ? `?${r.query}` : ""}`,
    operation: r.operationKey,
    state: expired ? "expired" : r.status,
    expiresAt: r.expiresAt.toISOString(),
    createdAt: r.createdAt.toISOString(),
  };
}

export async function getApprovalView(id: string): Promise<ApprovalView | null> {
  if (!/^apr_[0-9a-z]{16}$/.test(id)) return null;
  const row = await findApproval(id);
  return row ? view(row, Date.now()) : null;
}

export async function listPersonApprovals(humanId: string, sellerId: string): Promise<ApprovalView[]> {
  const now = Date.now();
  return (await findPersonApprovals(humanId, sellerId, 50)).map((r) => view(r, now));
}
