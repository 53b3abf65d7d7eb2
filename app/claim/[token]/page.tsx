import { currentSession } from "@/server/auth/session";
import { viewClaimAttempt } from "@/server/identity/confirm-claim";
import type { Metadata } from "next";
import { LocalTime, TimeLeft } from "../../_components/local-time";
import { SignOutButton } from "../../_components/email-code-sign-in";
import { ConfirmClaim, HumanSignIn } from "./claim-client";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Claim your agent", robots: { index: false } };

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
        <SignOutButton />
      </div>
    );
  else
    body = (
      <>
        <p className="mt-2 text-sm text-slate-600">
          Signed in as <span data-testid="signed-in-as">{human.email}</span>. <SignOutButton />
        </p>
        <ConfirmClaim
          token={token}
          again={view.state === "confirmed" && view.confirmedBy === human.id}
          sellerName={view.sellerName}
          agent={{
            id: view.credentialId,
            kind: view.credentialKind,
            loginHint: view.loginHint,
            registeredAt: view.agentRegisteredAt.toISOString(),
            expiresAt: view.agentExpiresAt?.toISOString() ?? null,
          }}
        />
      </>
    );

  const live = view && (view.state === "open" || view.state === "confirmed");
  return (
    <main className="mx-auto my-12 max-w-lg px-4 sm:mt-24">
      <div className="rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
        <h1 className="text-xl font-semibold">Claim your agent</h1>
        {live && <ClaimTerms sellerName={view.sellerName} expiresAt={view.expiresAt.toISOString()} />}
        {body}
      </div>
    </main>
  );
}

/** What confirming grants, the warning against confirming someone else's agent or sharing the code, the seller, the time left. */
function ClaimTerms({ sellerName, expiresAt }: { sellerName: string; expiresAt: string }) {
  return (
    <>
      <p className="mt-3" data-testid="claim-seller">
        An AI agent asks to be linked to you at <strong>{sellerName}</strong>, a shop that sells market and economic data to agents.
      </p>
      <section className="mt-4 rounded border border-slate-200 bg-slate-50 p-3 text-sm" aria-labelledby="claim-grants" data-testid="claim-grants">
        <h2 id="claim-grants" className="font-medium">
          What confirming does
        </h2>
        <ul className="mt-1 list-disc space-y-1 pl-5 text-slate-700">
          <li>
            The agent can then spend <strong>your plans, your prepaid credit and your free included units</strong> at {sellerName}, including what you or your
            other agents bought there.
          </li>
          <li>What this agent bought so far becomes yours: it no longer expires with the agent, and you can recover it.</li>
          <li>It does not give the agent your email password, your card or any wallet; it applies only at {sellerName}.</li>
        </ul>
      </section>
      <section className="mt-3 rounded border border-amber-400 bg-amber-50 p-3 text-sm" aria-labelledby="claim-warning" data-testid="claim-warning">
        <h2 id="claim-warning" className="font-medium text-amber-950">
          Only for an agent you started
        </h2>
        <p className="mt-1 text-amber-950">
          Do not confirm an agent you did not start, and never share the code this page shows with anyone but your own agent. If someone sent you this link or
          asks you for the code, deny it: confirming would let their agent spend your plans and credit.
        </p>
      </section>
      <p className="mt-3 text-sm text-slate-700" data-testid="claim-expiry">
        This link expires at <LocalTime iso={expiresAt} withDate={false} testId="claim-expires-at" />
        <TimeLeft iso={expiresAt} prefix=", " testId="claim-time-left" />.
      </p>
    </>
  );
}
