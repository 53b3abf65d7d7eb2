"use client";

import { signIn, signOut } from "next-auth/react";
import { useRouter } from "next/navigation";
import { useActionState, useState } from "react";
import { requestAccountCodeAction, setBudgetAction, type BudgetFormState } from "./actions";

const button = "rounded bg-indigo-700 px-4 py-2 text-white disabled:opacity-50";
const input = "mt-1 w-full rounded border border-slate-400 px-2 py-1";

/** Email -> a code (only people who claimed an agent here get one) -> a session, as on the claim page. */
export function AccountSignIn() {
  const router = useRouter();
  const [email, setEmail] = useState("");
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
          const res = await requestAccountCodeAction(email);
          setPending(false);
          setMessage(res.message);
          setSent(res.message.startsWith("If "));
        }}
      >
        <label className="block text-sm">
          Your email
          <input name="email" type="email" required value={email} onChange={(e) => setEmail(e.target.value)} className={input} />
        </label>
        {message && (
          <p role="alert" className="text-sm text-red-700">
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
      <p className="text-sm text-slate-700" data-testid="code-sent">
        {message}
      </p>
      <label className="block text-sm">
        Sign-in code
        <input name="code" inputMode="numeric" autoComplete="one-time-code" required className={input} />
      </label>
      <button className={button} disabled={pending}>
        Sign in
      </button>
    </form>
  );
}

export function AccountSignOut() {
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

export type BudgetDefaults = { perCallUsd: string; perDayUsd: string; perMonthUsd: string };

/** One budget's three limits (USD; empty is no limit), for one agent or (credential "") all of the person's agents. */
export function BudgetForm({ credential, label, defaults }: { credential: string; label: string; defaults: BudgetDefaults }) {
  const [state, action, pending] = useActionState<BudgetFormState, FormData>(setBudgetAction, null);
  const id = credential || "all";
  const fields: [keyof BudgetDefaults, string, string][] = [
    ["perCallUsd", "per_call_usd", "Per call"],
    ["perDayUsd", "per_day_usd", "Per day (UTC)"],
    ["perMonthUsd", "per_month_usd", "Per month (UTC)"],
  ];
  return (
    <form action={action} className="mt-3 space-y-3" aria-label={`Budget for ${label}`} data-testid={`budget-form-${id}`}>
      <input type="hidden" name="credential" value={credential} />
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-3">
        {fields.map(([key, name, title]) => (
          <label key={name} className="block text-sm">
            {title}, USD
            <input name={name} inputMode="decimal" placeholder="no limit" defaultValue={defaults[key]} className={input} />
          </label>
        ))}
      </div>
      {state && (
        <p role={state.ok ? "status" : "alert"} className={`text-sm ${state.ok ? "text-green-800" : "text-red-700"}`}>
          {state.message}
        </p>
      )}
      <button className={button} disabled={pending}>
        Save budget
      </button>
    </form>
  );
}
