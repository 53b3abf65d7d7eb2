"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { authenticateAction, payAction } from "./actions";

const button = "w-full rounded bg-indigo-600 px-4 py-2.5 font-medium text-white hover:bg-indigo-700 disabled:cursor-not-allowed disabled:opacity-50";
const input = "mt-1 w-full rounded border border-slate-300 px-3 py-2 font-mono";

/**
 * The card form (test processor: the card is taken on this page). The button is disabled from the first click until
 * the answer is in, and the server confirms each attempt once whatever arrives: no double charge on a double click.
 */
export function CardForm({ paymentId, attempt, amount }: { paymentId: string; attempt: number; amount: string }) {
  const router = useRouter();
  const [pending, setPending] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  return (
    <form
      className="mt-6 space-y-4"
      data-testid="card-form"
      onSubmit={async (e) => {
        e.preventDefault();
        if (pending) return;
        const f = new FormData(e.currentTarget);
        setPending(true);
        setMessage(null);
        const res = await payAction(paymentId, attempt, {
          number: String(f.get("number") ?? ""),
          expiry: String(f.get("expiry") ?? ""),
          cvc: String(f.get("cvc") ?? ""),
        });
        if (!res.ok) {
          setMessage(res.message);
          setPending(false);
        }
        router.refresh();
      }}
    >
      <label className="block text-sm font-medium">
        Card number
        <input name="number" inputMode="numeric" autoComplete="cc-number" placeholder="4242 4242 4242 4242" required className={input} />
      </label>
      <div className="flex gap-4">
        <label className="block flex-1 text-sm font-medium">
          Expiry (MM / YY)
          <input name="expiry" autoComplete="cc-exp" placeholder="12 / 34" required className={input} />
        </label>
        <label className="block w-32 text-sm font-medium">
          CVC
          <input name="cvc" inputMode="numeric" autoComplete="cc-csc" placeholder="123" required className={input} />
        </label>
      </div>
      {message && (
        <p role="alert" className="text-sm text-red-700" data-testid="form-error">
          {message}
        </p>
      )}
      <button className={button} disabled={pending} data-testid="pay-button">
        {pending ? "Processing…" : `Pay ${amount}`}
      </button>
    </form>
  );
}

/** The 3-D Secure confirmation step, as Stripe's test mode shows it: complete or fail the authentication. */
export function AuthenticationStep({ paymentId }: { paymentId: string }) {
  const router = useRouter();
  const [pending, setPending] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  const act = async (approve: boolean) => {
    setPending(true);
    const res = await authenticateAction(paymentId, approve);
    if (!res.ok) setMessage(res.message);
    setPending(false);
    router.refresh();
  };
  return (
    <div className="mt-6 rounded border border-amber-300 bg-amber-50 p-4" data-testid="authentication-step">
      <h2 className="font-medium">Confirm this payment with your bank</h2>
      <p className="mt-1 text-sm text-slate-700">Your card requires 3-D Secure authentication. In test mode you choose the outcome.</p>
      <div className="mt-4 flex gap-3">
        <button className="rounded bg-indigo-600 px-4 py-2 text-white disabled:opacity-50" disabled={pending} onClick={() => act(true)}>
          Complete authentication
        </button>
        <button className="rounded border border-slate-300 px-4 py-2 disabled:opacity-50" disabled={pending} onClick={() => act(false)}>
          Fail authentication
        </button>
      </div>
      {message && (
        <p role="alert" className="mt-2 text-sm text-red-700">
          {message}
        </p>
      )}
    </div>
  );
}
