import type { MerchantInfo } from "@/server/settings/get-merchant-info";

/** Who the payer is dealing with: contact, terms and refund policy, as the seller set them in the console. */
export function Merchant({ sellerName, m }: { sellerName: string; m: MerchantInfo }) {
  return (
    <section className="mt-4 rounded-lg border border-slate-200 bg-white p-4 text-sm" aria-labelledby="merchant" data-testid="merchant">
      <h2 id="merchant" className="font-medium">
        About {sellerName}
      </h2>
      <dl className="mt-2 grid gap-y-2 sm:grid-cols-[8rem_1fr]">
        <dt className="text-slate-600">Contact</dt>
        <dd data-testid="merchant-contact">
          {m.contactEmail ? (
            <a className="text-indigo-700 underline" href={`mailto:${m.contactEmail}`}>
              {m.contactEmail}
            </a>
          ) : (
            "The seller has not given a contact address."
          )}
        </dd>
        <dt className="text-slate-600">Refunds</dt>
        <dd data-testid="merchant-refunds">
          <p>{m.automaticRefund}</p>
          {m.refundPolicy && <p className="mt-1 whitespace-pre-line">{m.refundPolicy}</p>}
        </dd>
        <dt className="text-slate-600">Terms</dt>
        <dd data-testid="merchant-terms">
          {m.termsText ? (
            <details>
              <summary className="cursor-pointer text-indigo-700 underline">Read the terms</summary>
              <p className="mt-1 whitespace-pre-line text-slate-700">{m.termsText}</p>
            </details>
          ) : (
            "The seller has not published terms."
          )}
        </dd>
      </dl>
    </section>
  );
}
