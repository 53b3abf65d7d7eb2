"use client";

import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useTRPC } from "../../../providers";
import { count, short, usd, utc } from "../../../_components/format";
import { RangePicker, describeRange } from "../../../_components/range-picker";
import { BUTTON_SECONDARY, Empty, Loaded, PageHeader, Section, TABLE_CLASS, TableScroll, ShowOlder } from "../../../_components/section";
import { rangeFrom, useSearchState } from "../../../_components/use-search-state";

function PayingWallets() {
  const trpc = useTRPC();
  const { params, set } = useSearchState();
  const page = Math.max(1, Number(params.get("page") ?? 1) || 1);
  const q = useQuery(trpc.customers.payers.queryOptions({ ...rangeFrom(params), page }));
  return (
    <Loaded query={q} what="paying wallets">
      {(d) => (
        <Section title={`Paying wallets · ${describeRange(d.range)}`} testId="section-payers">
          {d.payers.length === 0 ? (
            <Empty testId="payers-empty">No one paid in this range.</Empty>
          ) : (
            <>
              <TableScroll>
                <table className={TABLE_CLASS} data-testid="payers-table">
                  <thead className="text-slate-500">
                    <tr>
                      <th className="py-1">Payer</th>
                      <th>Rails</th>
                      <th className="text-right">Paid calls</th>
                      <th className="text-right">Refunds</th>
                      <th className="text-right">Spend (net)</th>
                      <th>Last paid call (UTC)</th>
                    </tr>
                  </thead>
                  <tbody>
                    {d.payers.map((p) => (
                      <tr key={p.payer} className="border-t border-slate-100" data-testid={`payer-row-${p.payer}`}>
                        <td className="py-1.5 font-mono text-xs whitespace-nowrap" title={p.payer}>
                          <Link className="text-indigo-700 hover:underline" href={`/console/payments?payer=${encodeURIComponent(p.payer)}`}>
                            {short(p.payer, 10, 6)}
                          </Link>
                        </td>
                        <td>{p.rails.join(", ")}</td>
                        <td className="text-right tabular-nums">{count(p.calls)}</td>
                        <td className="text-right tabular-nums">{count(p.refunds)}</td>
                        <td className="text-right tabular-nums" data-value={p.netUsd}>
                          {usd(p.netUsd)}
                        </td>
                        <td className="font-mono text-xs whitespace-nowrap">{utc(p.lastAt).replace(" UTC", "")}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </TableScroll>
              <div className="mt-3 flex items-center gap-3 text-sm" data-testid="payers-pages">
                <span className="text-slate-600">
                  {count(d.total)} payer{d.total === 1 ? "" : "s"} · page {d.page} of {d.pages}
                </span>
                {d.page > 1 && (
                  <button className={BUTTON_SECONDARY} onClick={() => set({ page: String(d.page - 1) })}>
                    Previous
                  </button>
                )}
                {d.page < d.pages && (
                  <button className={BUTTON_SECONDARY} onClick={() => set({ page: String(d.page + 1) })}>
                    Next
                  </button>
                )}
              </div>
            </>
          )}
        </Section>
      )}
    </Loaded>
  );
}

function Credentials() {
  const trpc = useTRPC();
  const q = useInfiniteQuery(trpc.customers.credentials.infiniteQueryOptions({}, { getNextPageParam: (last) => last.nextCursor }));
  const rows = q.data?.pages.flatMap((p) => p.credentials) ?? [];
  return (
    <Section title="Agent credentials" testId="section-credentials">
      <p className="mb-3 text-sm text-slate-500">
        Credentials agents registered here (POST /agent/identity), newest first, with their money: live prepaid credit and the plans it is on, what each paid
        with its bearer (plan purchases and pay-as-you-go calls, net of refunds), what it drew on credit, and its served calls. Calls paid by a wallet without a
        bearer belong to no credential: they are under paying wallets above.
      </p>
      <Loaded query={q} what="agent credentials">
        {() =>
          rows.length === 0 ? (
            <Empty testId="credentials-empty">No agent has registered a credential yet.</Empty>
          ) : (
            <>
              <TableScroll>
                <table className={TABLE_CLASS} data-testid="credentials-table">
                  <thead className="text-slate-500">
                    <tr>
                      <th className="py-1">Credential</th>
                      <th>Kind</th>
                      <th>State</th>
                      <th>Claimed by</th>
                      <th>Plans (live credit)</th>
                      <th className="text-right">Credit left</th>
                      <th className="text-right">Spend (net)</th>
                      <th className="text-right">Drawn on credit</th>
                      <th className="text-right">Calls</th>
                      <th>Last call (UTC)</th>
                      <th>Registered (UTC)</th>
                      <th>Expires (UTC)</th>
                    </tr>
                  </thead>
                  <tbody>
                    {rows.map((c) => (
                      <tr key={c.id} className="border-t border-slate-100" data-testid={`credential-row-${c.id}`}>
                        <td className="py-1.5 font-mono text-xs whitespace-nowrap">{c.id}</td>
                        <td>{c.kind.replace("_", " ")}</td>
                        <td>{c.state.replace("_", " ")}</td>
                        <td className="break-all">{c.human ?? "—"}</td>
                        <td data-testid="credential-plans">{c.plans.join(", ") || "—"}</td>
                        <td className="text-right font-mono" data-testid="credential-balance">
                          {usd(c.balanceUsd)}
                        </td>
                        <td className="text-right font-mono" data-testid="credential-spend">
                          {usd(c.spentUsd)}
                        </td>
                        <td className="text-right font-mono" data-testid="credential-drawn">
                          {usd(c.drawnUsd)}
                        </td>
                        <td className="text-right font-mono" data-testid="credential-calls">
                          {count(c.calls)}
                        </td>
                        <td className="font-mono text-xs whitespace-nowrap">{c.lastCallAt ? utc(c.lastCallAt).replace(" UTC", "") : "—"}</td>
                        <td className="font-mono text-xs whitespace-nowrap">{utc(c.createdAt).replace(" UTC", "")}</td>
                        <td className="font-mono text-xs whitespace-nowrap">{c.expiresAt ? utc(c.expiresAt).replace(" UTC", "") : "—"}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </TableScroll>
              <ShowOlder query={q} label="Show older credentials" />
            </>
          )
        }
      </Loaded>
    </Section>
  );
}

export function Customers() {
  return (
    <>
      <PageHeader title="Customers" actions={<RangePicker />}>
        Who pays: the wallets that paid in a range, by spend net of refunds, and the agent credentials registered at this storefront.
      </PageHeader>
      <PayingWallets />
      <Credentials />
    </>
  );
}
