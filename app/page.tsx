import { headers } from "next/headers";
import Link from "next/link";
import { isAppError } from "@/server/errors";
import { storefrontOfHeaders } from "@/server/http/route";
import { RAILS } from "@/server/payments/rails";
import { getMerchantInfo, type MerchantInfo } from "@/server/settings/get-merchant-info";
import { Merchant } from "./_components/merchant";

export const dynamic = "force-dynamic";

const discovery = [
  { href: "/openapi.json", label: "/openapi.json", note: "OpenAPI 3.1 of every operation, with prices (try ?q=treasury interest)" },
  { href: "/services", label: "/services", note: "Service catalog" },
  { href: "/manifest.json", label: "/manifest.json", note: "Services, meters, plans, prices (authoritative)" },
  { href: "/vendor/agent/guide?goal=daily%20stock%20prices", label: "/vendor/agent/guide", note: "Free advice for a goal" },
];

/** This host's seller and what a payer reads about them; null on a host no seller serves (the page still explains the service). */
async function seller(): Promise<{ name: string; merchant: MerchantInfo } | null> {
  try {
    const { catalog } = await storefrontOfHeaders(await headers());
    return { name: catalog.seller.name, merchant: await getMerchantInfo(catalog.seller.id) };
  } catch (e) {
    // No storefront here, or a Host that is not a host at all.
    if (isAppError(e) && (e.code === "seller_not_found" || e.code === "invalid_request")) return null;
    throw e;
  }
}

// The storefront's front page, for people who land here: what it sells, how agents pay, and who the seller is.
export default async function Home() {
  const s = await seller();
  return (
    <main className="mx-auto max-w-3xl px-6 py-16">
      <h1 className="text-3xl font-semibold tracking-tight">Market and economic data, paid per request</h1>
      <p className="mt-4 text-slate-600">
        Agents discover the API, receive an HTTP 402 with a signed challenge, pay on one of the rails this storefront takes (
        {RAILS.filter((r) => !r.implicit)
          .map((r) => r.name)
          .join(", ")}
        : USDC on Base, or a card from $0.50, paid by the agent or by a person on a checkout page here), and get the data; or buy prepaid credit on a plan once
        and call with their agent token. No API keys, no accounts.
      </p>
      <h2 className="mt-10 text-lg font-medium">For agents</h2>
      <ul className="mt-3 space-y-2">
        {discovery.map((d) => (
          <li key={d.href}>
            <a className="font-mono text-indigo-700 underline underline-offset-2" href={d.href}>
              {d.label}
            </a>{" "}
            <span className="text-slate-600">- {d.note}</span>
          </li>
        ))}
      </ul>
      {s && (
        <div className="mt-10">
          <Merchant sellerName={s.name} m={s.merchant} />
        </div>
      )}
      <h2 className="mt-10 text-lg font-medium">For sellers</h2>
      <p className="mt-3">
        <Link className="text-indigo-700 underline underline-offset-2" href="/console">
          Seller console
        </Link>{" "}
        <span className="text-slate-600">
          - revenue at a glance, payments and refunds, customers, the 402 funnel, margin per operation, prices, plans, archive coverage, identity providers and
          the audit log.
        </span>
      </p>
    </main>
  );
}
