"use client";

import { useActionState } from "react";
import { EmailCodeSignIn } from "../_components/email-code-sign-in";
import { requestAccountCodeAction, setBudgetAction, type BudgetFormState } from "./actions";

const button = "rounded bg-indigo-700 px-4 py-2 text-white disabled:opacity-50";
const input = "mt-1 w-full rounded border border-slate-400 px-2 py-1";

/** Email -> a code (only people who claimed an agent here get one) -> a session, as on the claim page. */
export function AccountSignIn() {
  return (
    <EmailCodeSignIn
      requestCode={async (email) => {
        const res = await requestAccountCodeAction(email);
        // The same words whether or not the address may sign in here (no account enumeration); only a page error differs.
        return { ok: res.message.startsWith("If "), message: res.message };
      }}
    />
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
