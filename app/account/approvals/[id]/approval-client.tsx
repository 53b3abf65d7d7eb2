"use client";

import { signIn } from "next-auth/react";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { answerAction, requestApprovalCodeAction } from "./actions";

const button = "rounded bg-indigo-600 px-4 py-2 text-white disabled:opacity-50";
const secondary = "rounded border border-slate-300 px-4 py-2 disabled:opacity-50";

/** Sign in as the person the approval was sent to: a code to that address, typed back here. */
export function ApprovalSignIn({ approvalId }: { approvalId: string }) {
  const router = useRouter();
  const [email, setEmail] = useState("");
  const [sent, setSent] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  return (
    <form
      className="mt-4 space-y-3"
      onSubmit={async (e) => {
        e.preventDefault();
        setPending(true);
        if (!sent) {
          const res = await requestApprovalCodeAction(approvalId, email);
          setMessage(res.message);
          setSent(res.ok);
        } else {
          const code = String(new FormData(e.currentTarget).get("code") ?? "");
          const res = await signIn("human-email", { email, code, redirect: false });
          if (res?.ok && !res.error) router.refresh();
          else setMessage("That code is not right, or it expired.");
        }
        setPending(false);
      }}
    >
      <label className="block text-sm">
        Your email (where this approval was sent)
        <input
          name="email"
          type="email"
          required
          value={email}
          readOnly={sent}
          onChange={(e) => setEmail(e.target.value)}
          className="mt-1 w-full rounded border border-slate-300 px-2 py-1"
        />
      </label>
      {sent && (
        <label className="block text-sm">
          Sign-in code
          <input name="code" inputMode="numeric" autoComplete="one-time-code" required className="mt-1 w-full rounded border border-slate-300 px-2 py-1" />
        </label>
      )}
      {message && (
        <p role="status" className="text-sm" data-testid="approval-sign-in-message">
          {message}
        </p>
      )}
      <button className={button} disabled={pending}>
        {sent ? "Sign in" : "Email me a sign-in code"}
      </button>
    </form>
  );
}

export function AnswerApproval({ approvalId }: { approvalId: string }) {
  const router = useRouter();
  const [pending, setPending] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  const answer = async (approve: boolean) => {
    setPending(true);
    const res = await answerAction(approvalId, approve);
    setPending(false);
    setMessage(res.ok ? null : res.message);
    router.refresh();
  };
  return (
    <div className="mt-4 flex flex-wrap gap-3">
      <button type="button" className={button} disabled={pending} onClick={() => answer(true)}>
        Approve this call
      </button>
      <button type="button" className={secondary} disabled={pending} onClick={() => answer(false)}>
        Decline
      </button>
      {message && (
        <p role="alert" className="w-full text-sm text-red-700">
          {message}
        </p>
      )}
    </div>
  );
}
