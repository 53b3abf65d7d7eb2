"use client";

import Link from "next/link";
import { useState } from "react";
import { requestResetAction, resetPasswordAction, type ResetActionResult } from "./actions";

const INPUT = "mt-1 w-full rounded border border-slate-300 px-2 py-1";

/** Without a token: ask for the link. With one (from the email): choose the new password. */
export function ResetForm({ token }: { token: string | null }) {
  const [result, setResult] = useState<ResetActionResult | null>(null);
  const [pending, setPending] = useState(false);
  const submit = async (run: () => Promise<ResetActionResult>) => {
    setPending(true);
    setResult(null);
    try {
      setResult(await run());
    } finally {
      setPending(false);
    }
  };
  return (
    <form
      className="mt-6 space-y-4"
      onSubmit={(e) => {
        e.preventDefault();
        const form = new FormData(e.currentTarget);
        void submit(() => (token ? resetPasswordAction(token, String(form.get("password"))) : requestResetAction(String(form.get("email")))));
      }}
    >
      {token ? (
        <label className="block text-sm">
          New password (at least 12 characters)
          <input name="password" type="password" required minLength={12} autoComplete="new-password" className={INPUT} data-testid="reset-password" />
        </label>
      ) : (
        <label className="block text-sm">
          Email
          <input name="email" type="email" required autoComplete="username" className={INPUT} data-testid="reset-email" />
        </label>
      )}
      {result && (
        <p role={result.ok ? "status" : "alert"} className={`text-sm ${result.ok ? "text-emerald-700" : "text-red-700"}`} data-testid="reset-result">
          {result.message}
        </p>
      )}
      <button className="w-full rounded bg-indigo-600 py-2 text-white disabled:opacity-50" disabled={pending} data-testid="reset-submit">
        {token ? "Set the new password" : "Email me a link"}
      </button>
      <p className="text-sm">
        <Link className="text-indigo-700 underline" href="/console/sign-in">
          Back to sign-in
        </Link>
      </p>
    </form>
  );
}
