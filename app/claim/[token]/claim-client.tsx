"use client";

import { signIn, signOut } from "next-auth/react";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { confirmAction, denyAction, requestCodeAction } from "./actions";

const button = "rounded bg-indigo-600 px-4 py-2 text-white disabled:opacity-50";
const input = "mt-1 w-full rounded border border-slate-300 px-2 py-1";

/** Step 1: email -> a code in the inbox; step 2: the code -> a human session. */
export function HumanSignIn({ token, loginHint }: { token: string; loginHint: string | null }) {
  const router = useRouter();
  const [email, setEmail] = useState(loginHint ?? "");
  const [sent, setSent] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  if (!sent)
    return (
      <form
        className="mt-6 space-y-4"
        onSubmit={async (e) => {
          e.preventDefault();
          setPending(true);
          const res = await requestCodeAction(token, email);
          setPending(false);
          setMessage(res.message);
          if (res.ok) setSent(true);
        }}
      >
        <label className="block text-sm">
          Your email
          <input name="email" type="email" required value={email} onChange={(e) => setEmail(e.target.value)} className={input} />
        </label>
        {message && (
          <p role="alert" data-testid="sign-in-error" className="text-sm text-red-700">
            {message}
          </p>
        )}
        <button className={button} disabled={pending}>
          Email me a sign-in code
        </button>
      </form>
    );
  return (
    <form
      className="mt-6 space-y-4"
      onSubmit={async (e) => {
        e.preventDefault();
        const code = String(new FormData(e.currentTarget).get("code") ?? "");
        setPending(true);
        const res = await signIn("human-email", { email, code, redirect: false });
        setPending(false);
        if (res?.ok && !res.error) router.refresh();
        else setMessage("That code is not right, or it expired.");
      }}
    >
      <p className="text-sm text-slate-600" data-testid="code-sent">
        {message}
      </p>
      <label className="block text-sm">
        Sign-in code
        <input name="code" inputMode="numeric" autoComplete="one-time-code" required className={input} />
      </label>
      {message && message.startsWith("That") && (
        <p role="alert" className="text-sm text-red-700">
          {message}
        </p>
      )}
      <button className={button} disabled={pending}>
        Sign in
      </button>
    </form>
  );
}

/** Step 3: confirm (and read the code for the agent) or deny. */
export function ConfirmClaim({ token, again }: { token: string; again: boolean }) {
  const router = useRouter();
  const [code, setCode] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  if (code)
    return (
      <div className="mt-6">
        <p className="text-sm text-slate-600">Give this code to your agent. It expires in 10 minutes.</p>
        <p data-testid="user-code" className="mt-3 font-mono text-4xl tracking-widest">
          {code}
        </p>
      </div>
    );
  return (
    <div className="mt-6 space-y-3">
      {error && (
        <p role="alert" className="text-sm text-red-700">
          {error}
        </p>
      )}
      <div className="flex gap-3">
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
        <button
          className="rounded border border-slate-300 px-4 py-2"
          disabled={pending}
          onClick={async () => {
            setPending(true);
            await denyAction(token);
            router.refresh();
          }}
        >
          Deny
        </button>
      </div>
    </div>
  );
}

export function SignOut() {
  const router = useRouter();
  return (
    <button
      className="text-sm text-indigo-700 underline"
      onClick={async () => {
        await signOut({ redirect: false });
        router.refresh();
      }}
    >
      Sign out
    </button>
  );
}
