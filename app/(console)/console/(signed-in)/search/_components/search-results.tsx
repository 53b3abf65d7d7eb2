"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { ShortId, shortId } from "@/app/_components/short-id";
import { useTRPC } from "../../../providers";
import { railLabel, usd } from "../../../_components/format";
import { useOperationTitles } from "../../../_components/operation-name";
import { Empty, LINK, Loaded, PageHeader, Section } from "../../../_components/section";
import { StateText } from "../../../_components/state-badge";
import { useSearchState } from "../../../_components/use-search-state";

const KIND_LABEL: Record<string, string> = {
  payment: "Payment",
  wallet: "Wallet",
  credential: "Agent credential",
  person: "Person",
  plan: "Plan",
  meter: "Meter",
  operation: "Operation",
};

/** The shell's search results: each hit with what it is and the page that shows it. */
export function SearchResults() {
  const trpc = useTRPC();
  const { params } = useSearchState();
  const q = params.get("q") ?? "";
  const res = useQuery(trpc.search.global.queryOptions({ q }));
  const operation = useOperationTitles();
  return (
    <>
      <PageHeader title="Search">
        A payment id (pay_…), a wallet or transaction (0x…), a card processor id (pi_…), an agent credential (agt_…), a person&apos;s email, or part of a plan,
        meter or operation name.
      </PageHeader>
      <Section title={q ? `Results for “${shortId(q, 24, 8)}”` : "Results"} testId="section-search">
        <Loaded query={res} what="results">
          {(r) =>
            r.hits.length === 0 ? (
              <Empty testId="search-empty">{q ? "Nothing matches. Ids, wallets and emails must be whole." : "Type in the search box above."}</Empty>
            ) : (
              <ul className="divide-y divide-slate-100" data-testid="search-hits">
                {r.hits.map((h) => (
                  <li key={`${h.kind}:${h.id}`} className="py-2" data-testid={`search-hit-${h.kind}`}>
                    <p className="text-xs text-slate-600">{KIND_LABEL[h.kind] ?? h.kind}</p>
                    <Link href={h.href} className={`${LINK} break-all`}>
                      {h.payment ? `${usd(h.payment.amountUsd)} · ${operation(h.payment.operation).title}` : h.label}
                    </Link>
                    {h.payment ? (
                      <p className="text-sm text-slate-700">
                        <StateText value={h.payment.status} />
                        {h.payment.rail ? ` · ${railLabel(h.payment.rail)}` : ""} · {h.payment.createdAt.slice(0, 10)} ·{" "}
                        <ShortId value={h.id} what="payment id" />
                      </p>
                    ) : (
                      <p className="text-sm text-slate-700">{h.detail}</p>
                    )}
                  </li>
                ))}
              </ul>
            )
          }
        </Loaded>
      </Section>
    </>
  );
}
