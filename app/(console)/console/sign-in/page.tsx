"use client";

import { signIn } from "next-auth/react";
import { useRouter } from "next/navigation";
import Link from "next/link";
import { useState } from "react";

/** What the page says for next-auth's `error`: a lockout (server/auth/limited-sign-in.ts) with its wait, else one message. */
function refusal(error: string | null | undefined, codeStep: boolean): string {
  const locked = /^locked:(\d+)$/.exec(error ?? "");
  if (locked) return `Too many attempts for this account or from this address. Try again in ${locked[1]} seconds.`;
  return codeStep ? "That code did not work. Enter the current code from your app, or an unused recovery code." : "Wrong email or password.";
}

const FIELD = "mt-1 w-full rounded border border-slate-300 px-2 py-1";

// /console/sign-in - seller sign-in (email and password; then, for an account with two-step authentication on, a code)
export default function SellerSignIn() {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  // Kept only in this page's memory between the two steps: the code step sends them again with the code.
  const [account, setAccount] = useState<{ email: string; password: string } | null>(null);
  return (
    <main className="mx-auto mt-24 max-w-sm rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
      <h1 className="text-xl font-semibold">Seller console</h1>
      <p className="mt-1 text-sm text-slate-500">
        {account ? "Enter the 6-digit code from your authenticator app, or a recovery code." : "Sign in to manage meters, prices and plans."}
      </p>
      <form
        className="mt-6 space-y-4"
        onSubmit={async (e) => {
          e.preventDefault();
          const form = new FormData(e.currentTarget);
          const creds = account ?? { email: String(form.get("email")), password: String(form.get("password")) };
          setPending(true);
          setError(null);
          const res = await signIn("seller", { ...creds, ...(account ? { code: String(form.get("code")) } : {}), redirect: false });
          setPending(false);
          if (res?.ok && !res.error) router.push("/console");
          else if (res?.error === "code_required") setAccount(creds);
          else setError(refusal(res?.error, !!account));
        }}
      >
        {account ? (
          <label className="block text-sm">
            Authentication code
            <input name="code" required autoComplete="one-time-code" autoFocus className={`${FIELD} font-mono`} data-testid="sign-in-code" />
          </label>
        ) : (
          <>
            <label className="block text-sm">
              Email
              <input name="email" type="email" required autoComplete="username" className={FIELD} />
            </label>
            <label className="block text-sm">
              Password
              <input name="password" type="password" required autoComplete="current-password" className={FIELD} />
            </label>
          </>
        )}
        {error && (
          <p role="alert" className="text-sm text-red-700">
            {error}
          </p>
        )}
        <button className="w-full rounded bg-indigo-600 py-2 text-white disabled:opacity-50" disabled={pending}>
          {pending ? "Signing in" : account ? "Verify" : "Sign in"}
        </button>
      </form>
      <p className="mt-4 text-sm">
        {account ? (
          <button type="button" className="text-indigo-700 underline" onClick={() => (setAccount(null), setError(null))} data-testid="sign-in-start-again">
            Use another account
          </button>
        ) : (
          <Link className="text-indigo-700 underline" href="/console/reset-password" data-testid="forgot-password">
            Forgot your password?
          </Link>
        )}
      </p>
    </main>
  );
}
