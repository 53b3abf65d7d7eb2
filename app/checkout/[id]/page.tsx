import type { Metadata } from "next";
import { headers } from "next/headers";
import Link from "next/link";
import { notFound } from "next/navigation";
import type { ReactNode } from "react";
import { isAppError } from "@/server/errors";
import { hasControlCharacters, isInvalidTextError } from "@/server/http/invalid-text";
import { storefrontOfHeaders } from "@/server/http/route";
import { getCheckoutView, type CheckoutView } from "@/server/payments/rails/card/checkout/checkout-view";
import { LocalTime } from "../../_components/local-time";
import { Merchant } from "../../_components/merchant";
import { ShortId } from "../../_components/short-id";
import { AuthenticationStep, CardForm } from "./checkout-client";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Checkout", robots: { index: false } };

const cardText = (c: CheckoutView["card"]) => (c ? `${c.brand.toUpperCase()} •••• ${c.last4}` : "your card");

function Notice({ tone, title, children, testId }: { tone: "ok" | "bad" | "info"; title: string; children?: ReactNode; testId: string }) {
  const colors = { ok: "border-emerald-300 bg-emerald-50", bad: "border-red-300 bg-red-50", info: "border-slate-300 bg-slate-50" }[tone];
  return (
    <div className={`mt-6 rounded border p-4 ${colors}`} data-testid={testId} role={tone === "bad" ? "alert" : "status"}>
      <h2 className="font-semibold">{title}</h2>
      {children && <div className="mt-1 space-y-1 text-sm text-slate-700">{children}</div>}
    </div>
  );
}

function Receipt({ v, delivered }: { v: CheckoutView; delivered: boolean }) {
  return (
    <Notice tone="ok" title="Payment received" testId="checkout-complete">
      <dl className="mt-2 grid grid-cols-[8rem_1fr] gap-y-1" data-testid="receipt">
        <dt className="text-slate-500">Amount</dt>
        <dd>{v.amount} USD</dd>
        <dt className="text-slate-500">Paid with</dt>
        <dd data-testid="receipt-card">{cardText(v.card)}</dd>
        <dt className="text-slate-500">Paid on</dt>
        <dd>{v.paidAt ? <LocalTime iso={v.paidAt} /> : ""}</dd>
        <dt className="text-slate-500">To</dt>
        <dd>{v.sellerName}</dd>
        <dt className="text-slate-500">Reference</dt>
        <dd className="min-w-0 font-mono text-xs break-all">{v.reference}</dd>
        <dt className="text-slate-500">Payment</dt>
        <dd className="min-w-0">
          <ShortId value={v.paymentId} what="payment id" testId="receipt-payment-id" />
        </dd>
        {v.payerEmail && (
          <>
            <dt className="text-slate-500">Receipt sent to</dt>
            <dd data-testid="receipt-email">{v.payerEmail}</dd>
          </>
        )}
      </dl>
      <p className="mt-3">
        {delivered ? "Your agent has received what it paid for." : "Your agent can now retry its request and will receive what it paid for."} You can close this
        page.
      </p>
    </Notice>
  );
}

function Body({ v }: { v: CheckoutView }) {
  switch (v.state) {
    case "not_started":
      return (
        <Notice tone="info" title="This payment link is not open yet" testId="checkout-not-started">
          <p>Ask your agent for the checkout link it gets when it opens a card payment for this request.</p>
        </Notice>
      );
    case "unavailable":
      return <Notice tone="info" title="This payment cannot be paid by card here" testId="checkout-unavailable" />;
    case "complete":
      return <Receipt v={v} delivered={false} />;
    case "consumed":
      return <Receipt v={v} delivered />;
    case "expired":
      return (
        <Notice tone="bad" title="This checkout has expired" testId="checkout-expired">
          <p>Nothing was charged. Ask your agent to request a new payment link.</p>
        </Notice>
      );
    case "refunded":
      return (
        <Notice tone="info" title="Refunded in full" testId="checkout-refunded">
          <p>
            {v.amount} {v.refund?.status === "succeeded" ? "was refunded" : "is being refunded"} to {cardText(v.card)}
            {v.refund?.cause === "seller" ? " by the seller." : ": what you paid for could not be delivered."}
          </p>
          <p>Refunds usually appear on your statement within 5 to 10 business days.</p>
        </Notice>
      );
    case "failed":
      return (
        <Notice tone="bad" title="Payment failed" testId="checkout-failed">
          <p>{v.lastError?.message ?? "The payment could not be completed."} Nothing was charged.</p>
        </Notice>
      );
    case "processing":
      return <Notice tone="info" title="Your payment is being processed" testId="checkout-processing" />;
    case "requires_action":
      return <AuthenticationStep paymentId={v.paymentId} />;
    case "incomplete":
      return (
        <>
          {v.lastError && (
            <Notice tone="bad" title="Payment failed" testId="checkout-failed">
              <p data-testid="decline-message">
                {v.lastError.message}
                {v.lastError.decline_code ? ` (${v.lastError.decline_code.replace(/_/g, " ")})` : ""}
              </p>
              <p>You were not charged. You can try another card.</p>
            </Notice>
          )}
          {v.processor?.cardOnPage ? (
            <CardForm key={v.attempt} paymentId={v.paymentId} attempt={v.attempt} amount={v.amount} />
          ) : v.processor?.hostedUrl ? (
            <a className="mt-6 block rounded bg-indigo-600 px-4 py-2.5 text-center font-medium text-white hover:bg-indigo-700" href={v.processor.hostedUrl}>
              Pay {v.amount} with card (Stripe)
            </a>
          ) : (
            <Notice tone="info" title="The card form is on its way" testId="checkout-preparing">
              <p>Reload this page in a moment.</p>
            </Notice>
          )}
          <p className="mt-3 text-xs text-slate-600" data-testid="checkout-open-until">
            This checkout is open until <LocalTime iso={v.expiresAt} />.
          </p>
        </>
      );
  }
}

// /checkout/{paymentId} - the hosted card checkout a human opens from the agent's payUrl (test processor or Stripe)
export default async function CheckoutPage({ params, searchParams }: { params: Promise<{ id: string }>; searchParams: Promise<Record<string, string>> }) {
  const [{ id }, query] = await Promise.all([params, searchParams]);
  // An id no payment can have (a NUL or another control character) is not looked up: the same 404 as an unknown one.
  if (hasControlCharacters(id)) notFound();
  let view: CheckoutView | null;
  try {
    const { catalog } = await storefrontOfHeaders(await headers());
    // Back from Stripe Checkout: ask Stripe how it went rather than wait for the webhook.
    view = await getCheckoutView(catalog, id, { sync: query.returned === "1" });
  } catch (e) {
    if (isAppError(e) && (e.code === "seller_not_found" || e.code === "invalid_request")) notFound();
    // Whatever else the database refuses as text: the same 404, never the database's words.
    if (isInvalidTextError(e)) notFound();
    throw e;
  }
  // An unknown id, or another storefront's payment: the same 404.
  if (!view) notFound();
  return (
    <main className="mx-auto my-12 max-w-lg px-4">
      <Link href="/" className="text-sm text-indigo-700 hover:underline" data-testid="back-link">
        ← Back to {view.sellerName}
      </Link>
      <div className="mt-4 rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
        {view.processor?.testMode && (
          <p className="-mx-6 -mt-6 mb-6 rounded-t-lg bg-amber-100 px-6 py-2 text-sm text-amber-900" data-testid="test-mode-banner">
            <strong>Test mode</strong> · {view.processor.label}: no real money moves and no real card is charged.
          </p>
        )}
        <h1 className="text-xl font-semibold">Pay {view.sellerName}</h1>
        <dl className="mt-4 grid grid-cols-[7rem_1fr] gap-y-2 text-sm" data-testid="purchase-summary">
          <dt className="text-slate-600">For</dt>
          <dd data-testid="purchase-title">{view.purchase.title}</dd>
          {view.purchase.kind === "call" && (
            <>
              <dt className="text-slate-600">Your agent&apos;s request</dt>
              <dd className="font-mono text-xs break-all" data-testid="purchase-detail">
                {view.purchase.detail}
              </dd>
            </>
          )}
          <dt className="text-slate-600">Seller</dt>
          <dd data-testid="purchase-seller">{view.sellerName}</dd>
          <dt className="text-slate-600">Amount</dt>
          <dd className="text-lg font-semibold" data-testid="purchase-amount">
            {view.amount} <span className="text-sm font-normal text-slate-600">USD</span>
          </dd>
        </dl>
        {view.purchase.plan && <PlanTerms plan={view.purchase.plan} amount={view.amount} />}
        <Body v={view} />
        {view.testCards && view.state === "incomplete" && (
          <details className="mt-6 text-sm" data-testid="test-cards" open>
            <summary className="cursor-pointer text-slate-600">Test cards (any future expiry, any three-digit CVC)</summary>
            <ul className="mt-2 space-y-1">
              {view.testCards.map((c) => (
                <li key={c.number}>
                  <code>{c.number}</code> <span className="text-slate-600">- {c.label}</span>
                </li>
              ))}
            </ul>
            <p className="mt-2 text-xs text-slate-500">
              Stripe&apos;s published test card numbers (
              <a className="underline" href="https://docs.stripe.com/testing">
                docs.stripe.com/testing
              </a>
              ). Any other number is declined; a real card is never charged here.
            </p>
          </details>
        )}
      </div>
      <Merchant sellerName={view.sellerName} m={view.merchant} />
    </main>
  );
}

/** What a plan purchase buys: the credit, the data it pays for, how long it lasts, and the unclaimed agent's limit. */
function PlanTerms({ plan, amount }: { plan: NonNullable<CheckoutView["purchase"]["plan"]>; amount: string }) {
  return (
    <section className="mt-4 rounded border border-slate-200 p-3 text-sm" aria-labelledby="plan-buys" data-testid="plan-terms">
      <h2 id="plan-buys" className="font-medium">
        What this buys
      </h2>
      <ul className="mt-1 list-disc space-y-1 pl-5 text-slate-700">
        <li data-testid="plan-credit">
          {amount} of prepaid credit for your agent, at {plan.name}: each call it makes is paid from it at the per-request price.
        </li>
        <li data-testid="plan-meters">
          It pays for:{" "}
          {plan.meters.length
            ? plan.meters.map((m, i) => (
                <span key={m.key}>
                  {i > 0 ? "; " : ""}
                  <strong>{m.title}</strong>
                  {m.operations.length ? ` (${m.operations.join(", ")})` : ""}
                </span>
              ))
            : "no data yet (the plan covers no meter)"}
          .
        </li>
        <li data-testid="plan-validity">Credit lasts {plan.validityDays} days from the purchase; what is left then expires.</li>
        {plan.description && <li className="text-slate-600">{plan.description}</li>}
      </ul>
      {plan.unclaimedAgentExpiresAt ? (
        <p className="mt-3 rounded border border-amber-400 bg-amber-50 p-2 text-amber-950" role="note" data-testid="plan-unclaimed">
          <strong>This agent is not claimed by a person.</strong> Credit bought for an unclaimed agent dies with it, 3 days after it registered: at{" "}
          <LocalTime iso={plan.unclaimedAgentExpiresAt} />, unless you claim the agent first (it gives you the link). Claimed, the credit is yours for the full{" "}
          {plan.validityDays} days.
        </p>
      ) : (
        <p className="mt-3 text-slate-600" data-testid="plan-unclaimed">
          Credit bought for an agent nobody has claimed dies with it after 3 days
          {plan.agentClaimed ? "; this agent is claimed by a person, so the credit stays with them." : "."}
        </p>
      )}
    </section>
  );
}
