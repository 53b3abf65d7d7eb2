import Link from "next/link";
import { RAILS } from "@/server/payments/rails";

export const dynamic = "force-dynamic";

const discovery = [
  { href: "/openapi.json", label: "/openapi.json", note: "OpenAPI 3.1 of every operation, with prices (try ?q=treasury interest)" },
  { href: "/services", label: "/services", note: "Service catalog" },
  { href: "/manifest.json", label: "/manifest.json", note: "Services, meters, plans, prices (authoritative)" },
  { href: "/vendor/agent/guide?goal=daily%20stock%20prices", label: "/vendor/agent/guide", note: "Free advice for a goal" },
];

// The storefront's front page, for people who land here.
export default function Home() {
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
            <a className="font-mono text-indigo-700 hover:underline" href={d.href}>
              {d.label}
            </a>{" "}
            <span className="text-slate-600">- {d.note}</span>
          </li>
        ))}
      </ul>
      <h2 className="mt-10 text-lg font-medium">For sellers</h2>
      <p className="mt-3">
        <Link className="text-indigo-700 hover:underline" href="/console">
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
