"use client";

import { signIn, signOut } from "next-auth/react";
import { useRouter } from "next/navigation";
import { useState } from "react";

const button = "rounded bg-indigo-700 px-4 py-2 text-white disabled:opacity-50";
const input = "mt-1 w-full rounded border border-slate-400 px-2 py-1";
const WRONG_CODE = "That code is not right, or it expired.";

/**
 * A person's sign-in on the pages we host (the claim page, the person's account): an email, then the six-digit code
 * sent to it, then a session from the `human-email` provider. `requestCode` is the page's own server action: who may be
 * sent a code, and what the page says when not, differ between them.
 */
export function EmailCodeSignIn({
  initialEmail = "",
  requestCode,
}: {
  initialEmail?: string;
  requestCode: (email: string) => Promise<{ ok: boolean; message: string }>;
}) {
  const router = useRouter();
  const [email, setEmail] = useState(initialEmail);
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
          const res = await requestCode(email);
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
        else setMessage(WRONG_CODE);
      }}
    >
      <p className="text-sm text-slate-700" data-testid="code-sent">
        {message}
      </p>
      <label className="block text-sm">
        Sign-in code
        <input name="code" inputMode="numeric" autoComplete="one-time-code" required className={input} />
      </label>
      {message === WRONG_CODE && (
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

export function SignOutButton() {
  const router = useRouter();
  return (
    <button
      className="text-sm text-indigo-800 underline"
      onClick={async () => {
        await signOut({ redirect: false });
        router.refresh();
      }}
    >
      Sign out
    </button>
  );
}
