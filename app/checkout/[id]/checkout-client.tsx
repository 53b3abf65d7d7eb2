"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { checkCardFields, type CardField } from "@/server/payments/rails/card/checkout/validate-card";
import { authenticateAction, payAction } from "./actions";

const button = "w-full rounded bg-indigo-600 px-4 py-2.5 font-medium text-white hover:bg-indigo-700 disabled:cursor-not-allowed disabled:opacity-50";
const input = "mt-1 w-full rounded border border-slate-300 px-3 py-2 font-mono";

type Errors = Partial<Record<CardField, string>>;

function Field({
  name,
  label,
  error,
  className = "",
  ...rest
}: { name: CardField; label: string; error?: string; className?: string } & React.InputHTMLAttributes<HTMLInputElement>) {
  const errorId = `${name}-error`;
  return (
    <label className={`block text-sm font-medium ${className}`}>
      {label}
      <input
        name={name}
        className={`${input} ${error ? "border-red-600" : ""}`}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        data-testid={`card-${name}`}
        {...rest}
      />
      {error && (
        <span id={errorId} className="mt-1 block font-normal text-red-700" data-testid={`card-${name}-error`}>
          {error}
        </span>
      )}
    </label>
  );
}

/**
 * The card form (test processor: the card is taken on this page). Fields are checked here as the person submits and
 * again by the server action (validate-card.ts), each with its own message. The button is disabled from the first
 * click until the answer is in, and the server confirms each attempt once whatever arrives: no double charge on a
 * double click. The email is optional: it only sends the receipt there and names the payer to the seller.
 */
export function CardForm({ paymentId, attempt, amount }: { paymentId: string; attempt: number; amount: string }) {
  const router = useRouter();
  const [pending, setPending] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  const [errors, setErrors] = useState<Errors>({});
  return (
    <form
      className="mt-6 space-y-4"
      data-testid="card-form"
      noValidate
      onSubmit={async (e) => {
        e.preventDefault();
        if (pending) return;
        const f = new FormData(e.currentTarget);
        const fields = {
          number: String(f.get("number") ?? ""),
          expiry: String(f.get("expiry") ?? ""),
          cvc: String(f.get("cvc") ?? ""),
          email: String(f.get("email") ?? ""),
        };
        const checked = checkCardFields(fields);
        if (!checked.ok) {
          setErrors(checked.errors);
          setMessage("Check the highlighted fields. Nothing was charged.");
          return;
        }
        setErrors({});
        setPending(true);
        setMessage(null);
        const res = await payAction(paymentId, attempt, fields);
        if (!res.ok) {
          setErrors(res.errors ?? {});
          setMessage(res.message);
          setPending(false);
        }
        router.refresh();
      }}
    >
      <Field name="number" label="Card number" error={errors.number} inputMode="numeric" autoComplete="cc-number" placeholder="4242 4242 4242 4242" required />
      <div className="flex flex-wrap gap-4">
        <Field name="expiry" label="Expiry (MM / YY)" error={errors.expiry} className="min-w-40 flex-1" autoComplete="cc-exp" placeholder="12 / 34" required />
        <Field name="cvc" label="CVC" error={errors.cvc} className="w-32" inputMode="numeric" autoComplete="cc-csc" placeholder="123" required />
      </div>
      <Field
        name="email"
        label="Email for your receipt (optional)"
        error={errors.email}
        type="email"
        autoComplete="email"
        placeholder="you@example.com"
        aria-describedby={errors.email ? "email-error" : "email-hint"}
      />
      <p id="email-hint" className="-mt-2 text-xs text-slate-600">
        We email the receipt there and the seller sees it with this payment. Leave it empty to pay without one.
      </p>
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
