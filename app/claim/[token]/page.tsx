import { currentSession } from "@/server/auth/session";
import { viewClaimAttempt } from "@/server/identity/confirm-claim";
import { ConfirmClaim, HumanSignIn, SignOut } from "./claim-client";

export const dynamic = "force-dynamic";

const CLOSED: Record<string, string> = {
  expired: "This claim link has expired. Ask your agent for a new one.",
  completed: "This agent is claimed. You can close this page.",
  claimed: "This agent is already claimed.",
  denied: "You declined this claim.",
  locked: "Too many wrong codes were tried. Ask your agent to start again.",
};

// /claim/{token} - the human side of an agent claim: sign in, confirm (read the code) or deny
export default async function ClaimPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const view = await viewClaimAttempt(token);
  const session = await currentSession();
  const human = session?.user.kind === "human" ? session.user : null;

  let body;
  if (!view) body = <p className="mt-4">This claim link is not valid.</p>;
  else if (CLOSED[view.state])
    body = (
      <p className="mt-4" data-testid="claim-state">
        {CLOSED[view.state]}
      </p>
    );
  else if (!human) body = <HumanSignIn token={token} loginHint={view.loginHint} />;
  else if (view.loginHint && view.loginHint !== human.email)
    body = (
      <div className="mt-4 space-y-2">
        <p role="alert" data-testid="wrong-human">
          This claim is for {view.loginHint}, and you are signed in as {human.email}.
        </p>
        <SignOut />
      </div>
    );
  else
    body = (
      <>
        <p className="mt-2 text-sm text-slate-600">
          Signed in as <span data-testid="signed-in-as">{human.email}</span>. <SignOut />
        </p>
        <p className="mt-4">
          An agent wants to be linked to you at <strong>{view.sellerName}</strong> (credential <code>{view.credentialId}</code>, {view.credentialKind}). Confirm
          only if you started this from your own agent.
        </p>
        <ConfirmClaim token={token} again={view.state === "confirmed" && view.confirmedBy === human.id} />
      </>
    );

  return (
    <main className="mx-auto mt-24 max-w-lg rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
      <h1 className="text-xl font-semibold">Claim your agent</h1>
      {body}
    </main>
  );
}
