import type { Metadata } from "next";
import { getApprovalView } from "@/server/approvals/view-approvals";
import { LocalTime } from "../../../_components/local-time";
import { currentPerson } from "../../controls/person";
import { AnswerApproval, ApprovalSignIn } from "./approval-client";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Approve a call by your agent", robots: { index: false } };

const STATE: Record<string, string> = {
  approved: "You approved this call. Your agent's retry of it is served once.",
  used: "You approved this call, and your agent was served it.",
  declined: "You declined this call. Nothing was charged.",
  expired: "Nobody answered in time, so this call was declined. Nothing was charged.",
};

// /account/approvals/{id} - the person approves or declines one paid call their agent made over their threshold
export default async function ApprovalPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const [view, person] = await Promise.all([getApprovalView(id), currentPerson()]);
  const mine = view && person && view.humanId === person.humanId && view.sellerId === person.sellerId;
  let body;
  if (!view || (person && !mine)) body = <p className="mt-4">There is no approval of yours at this address.</p>;
  else if (!person) body = <ApprovalSignIn approvalId={id} />;
  else
    body = (
      <>
        <dl className="mt-4 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm" data-testid="approval-details">
          <dt className="text-slate-600">Amount</dt>
          <dd data-testid="approval-amount">${view.amountUsd}</dd>
          <dt className="text-slate-600">Your threshold</dt>
          <dd>${view.thresholdUsd}</dd>
          <dt className="text-slate-600">Agent</dt>
          <dd className="font-mono break-all">{view.credentialId}</dd>
          <dt className="text-slate-600">Request</dt>
          <dd className="font-mono break-all" data-testid="approval-request">
            {view.request}
          </dd>
          <dt className="text-slate-600">Asked</dt>
          <dd>
            <LocalTime iso={view.createdAt} />
          </dd>
        </dl>
        {view.state === "pending" ? (
          <>
            <p className="mt-4 text-sm">
              Answer by <LocalTime iso={view.expiresAt} />; unanswered, it is declined. Approving lets your agent&apos;s retry of this one request through,
              once.
            </p>
            <AnswerApproval approvalId={id} />
          </>
        ) : (
          <p className="mt-4" data-testid="approval-state">
            {STATE[view.state]}
          </p>
        )}
      </>
    );
  return (
    <main className="mx-auto my-12 max-w-lg px-4 sm:mt-24">
      <div className="rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
        <h1 className="text-xl font-semibold">Approve a call by your agent</h1>
        {body}
      </div>
    </main>
  );
}
