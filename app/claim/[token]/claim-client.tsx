"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { EmailCodeSignIn } from "../../_components/email-code-sign-in";
import { LocalTime } from "../../_components/local-time";
import { confirmAction, denyAction, requestCodeAction } from "./actions";

const button = "rounded bg-indigo-600 px-4 py-2 text-white disabled:opacity-50";
const secondary = "rounded border border-slate-300 px-4 py-2 disabled:opacity-50";

/** Step 1: email -> a code in the inbox; step 2: the code -> a human session. */
export function HumanSignIn({ token, loginHint }: { token: string; loginHint: string | null }) {
  return <EmailCodeSignIn initialEmail={loginHint ?? ""} requestCode={(email) => requestCodeAction(token, email)} />;
}

export type AgentDetails = { id: string; kind: string; loginHint: string | null; registeredAt: string; expiresAt: string | null };

const KIND_WORDS: Record<string, string> = {
  anonymous: "registered without an email; it has been working on its own so far",
  service_auth: "registered for an email address, waiting for that person to confirm",
  identity_assertion: "registered through an identity provider",
};

/**
 * Step 3: "Is this your agent?" with what we know of it, then confirm (and read the code for the agent) or deny. A
 * person already signed in who opens a link someone else sent would otherwise see Confirm at once; the question comes
 * first for everyone, so confirming is a decision about this agent, never a reflex.
 */
export function ConfirmClaim({ token, again, agent, sellerName }: { token: string; again: boolean; agent: AgentDetails; sellerName: string }) {
  const router = useRouter();
  const [mine, setMine] = useState(again);
  const [code, setCode] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const deny = async () => {
    setPending(true);
    await denyAction(token);
    router.refresh();
  };
  if (code)
    return (
      <div className="mt-6">
        <p className="text-sm text-slate-700">Give this code to your agent, and to no one else. It expires in 10 minutes.</p>
        <p data-testid="user-code" className="mt-3 font-mono text-4xl tracking-widest">
          {code}
        </p>
        <p className="mt-3 text-sm text-slate-700">Nobody from {sellerName} will ever ask you for it.</p>
      </div>
    );
  if (!mine)
    return (
      <section className="mt-6 rounded border border-slate-300 p-4" aria-labelledby="is-this-yours" data-testid="is-this-your-agent">
        <h2 id="is-this-yours" className="font-semibold">
          Is this your agent?
        </h2>
        <dl className="mt-3 grid grid-cols-[8rem_1fr] gap-y-1 text-sm">
          <dt className="text-slate-600">Agent</dt>
          <dd className="font-mono text-xs break-all" data-testid="agent-id">
            {agent.id}
          </dd>
          <dt className="text-slate-600">What it is</dt>
          <dd>
            {agent.kind.replace("_", " ")}: {KIND_WORDS[agent.kind] ?? "an agent credential"}
            {agent.loginHint ? ` (${agent.loginHint})` : ""}
          </dd>
          <dt className="text-slate-600">Registered</dt>
          <dd>
            <LocalTime iso={agent.registeredAt} testId="agent-registered" />
          </dd>
          {agent.expiresAt && (
            <>
              <dt className="text-slate-600">Unclaimed until</dt>
              <dd>
                <LocalTime iso={agent.expiresAt} /> (then it and anything it bought expire)
              </dd>
            </>
          )}
          <dt className="text-slate-600">At</dt>
          <dd>{sellerName}</dd>
        </dl>
        <p className="mt-3 text-sm text-slate-700">
          Answer yes only if you started this agent yourself and it sent you here just now. If someone else sent you this link, it is their agent: say no.
        </p>
        <div className="mt-4 flex flex-wrap gap-3">
          <button className={button} disabled={pending} onClick={() => setMine(true)}>
            Yes, I started this agent
          </button>
          <button className={secondary} disabled={pending} onClick={deny}>
            No, deny it
          </button>
        </div>
      </section>
    );
  return (
    <div className="mt-6 space-y-3">
      {error && (
        <p role="alert" className="text-sm text-red-700">
          {error}
        </p>
      )}
      <div className="flex flex-wrap gap-3">
        <button
          className={button}
          disabled={pending}
          onClick={async () => {
            setPending(true);
            const res = await confirmAction(token);
            setPending(false);
            if (res.type === "confirmed") setCode(res.userCode);
            else setError(res.detail);
          }}
        >
          {again ? "Show a new code" : "Confirm, this is my agent"}
        </button>
        <button className={secondary} disabled={pending} onClick={deny}>
          Deny
        </button>
      </div>
    </div>
  );
}
