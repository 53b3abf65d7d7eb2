"use client";

import Link from "next/link";
import { useState } from "react";
import { acceptInviteAction, type AcceptActionResult } from "./actions";

const INPUT = "mt-1 w-full rounded border border-slate-300 px-2 py-1";

export function AcceptForm({ token }: { token: string }) {
  const [result, setResult] = useState<AcceptActionResult | null>(null);
  const [pending, setPending] = useState(false);
  if (result?.ok)
    return (
      <div className="mt-6 space-y-4">
        <p role="status" className="text-sm text-emerald-700" data-testid="invite-result">
          {result.message}
        </p>
        <Link className="block w-full rounded bg-indigo-600 py-2 text-center text-white" href="/console/sign-in">
          Sign in
        </Link>
      </div>
    );
  return (
    <form
      className="mt-6 space-y-4"
      onSubmit={(e) => {
        e.preventDefault();
        const form = new FormData(e.currentTarget);
        setPending(true);
        setResult(null);
        acceptInviteAction(token, String(form.get("name")), String(form.get("password")))
          .then(setResult)
          .finally(() => setPending(false));
      }}
    >
      <label className="block text-sm">
        Your name
        <input name="name" required maxLength={100} autoComplete="name" className={INPUT} data-testid="invite-name" />
      </label>
      <label className="block text-sm">
        Password (at least 12 characters)
        <input name="password" type="password" required minLength={12} autoComplete="new-password" className={INPUT} data-testid="invite-password" />
      </label>
      {result && (
        <p role="alert" className="text-sm text-red-700" data-testid="invite-result">
          {result.message}
        </p>
      )}
      <button className="w-full rounded bg-indigo-600 py-2 text-white disabled:opacity-50" disabled={pending} data-testid="invite-submit">
        Join the console
      </button>
    </form>
  );
}
