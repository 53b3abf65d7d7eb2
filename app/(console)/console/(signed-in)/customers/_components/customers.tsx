"use client";

import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useTRPC } from "../../../providers";
import { count, short, usd, utcCell } from "../../../_components/format";
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
                        <td className="font-mono text-xs whitespace-nowrap">{utcCell(p.lastAt)}</td>
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

function People() {
  const trpc = useTRPC();
  const q = useInfiniteQuery(trpc.customers.humans.infiniteQueryOptions({}, { getNextPageParam: (last) => last.nextCursor }));
  const rows = q.data?.pages.flatMap((p) => p.humans) ?? [];
  return (
    <Section title="People" testId="section-people">
      <p className="mb-3 text-sm text-slate-500">
        The humans who claimed agent credentials here, newest claim first. Credentials one person claimed share that person&apos;s plans, so the money is over
        all of them: live prepaid credit and the plans it is on, the credit ever bought, what the credentials paid (plan purchases, net of refunds), what they
        drew on credit, and their served calls.
      </p>
      <Loaded query={q} what="people">
        {() =>
          rows.length === 0 ? (
            <Empty testId="people-empty">No one has claimed an agent credential yet.</Empty>
          ) : (
            <>
              <TableScroll>
                <table className={TABLE_CLASS} data-testid="people-table">
                  <thead className="text-slate-500">
                    <tr>
                      <th className="py-1">Person</th>
                      <th>Credentials</th>
                      <th>Plans (live credit)</th>
                      <th className="text-right">Credit left</th>
                      <th className="text-right">Credit bought</th>
                      <th className="text-right">Spend (net)</th>
                      <th className="text-right">Drawn on credit</th>
                      <th className="text-right">Calls</th>
                      <th>Last call (UTC)</th>
                      <th>First claim (UTC)</th>
                    </tr>
                  </thead>
                  <tbody>
                    {rows.map((h) => (
                      <tr key={h.id} className="border-t border-slate-100 align-top" data-testid={`person-row-${h.id}`}>
                        <td className="py-1.5 break-all" data-testid="person-email">
                          {h.email}
                        </td>
                        <td data-testid="person-credentials">
                          <ul>
                            {h.credentials.map((c) => (
                              <li key={c.id} className="font-mono text-xs whitespace-nowrap" data-testid={`person-credential-${c.id}`}>
                                {c.id}
                                {c.state === "revoked" && <span className="ml-1 font-sans text-red-700">(revoked)</span>}
                              </li>
                            ))}
                          </ul>
                        </td>
                        <CreditCells testId="person" row={h} />
                        <td className="font-mono text-xs whitespace-nowrap">{utcCell(h.since)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </TableScroll>
              <ShowOlder query={q} label="Show older people" />
            </>
          )
        }
      </Loaded>
    </Section>
  );
}

type CreditRow = { plans: string[]; balanceUsd: string; purchasedUsd?: string; spentUsd: string; drawnUsd: string; calls: number; lastCallAt: string | null };

/** The money columns a person and a credential share: plans with live credit, credit left (and bought, for a person), spend, draws, calls, last call. */
function CreditCells({ testId, row }: { testId: string; row: CreditRow }) {
  return (
    <>
      <td data-testid={`${testId}-plans`}>{row.plans.join(", ") || "—"}</td>
      <td className="text-right font-mono" data-testid={`${testId}-balance`}>
        {usd(row.balanceUsd)}
      </td>
      {row.purchasedUsd !== undefined && (
        <td className="text-right font-mono" data-testid={`${testId}-purchased`}>
          {usd(row.purchasedUsd)}
        </td>
      )}
      <td className="text-right font-mono" data-testid={`${testId}-spend`}>
        {usd(row.spentUsd)}
      </td>
      <td className="text-right font-mono" data-testid={`${testId}-drawn`}>
        {usd(row.drawnUsd)}
      </td>
      <td className="text-right font-mono" data-testid={`${testId}-calls`}>
        {count(row.calls)}
      </td>
      <td className="font-mono text-xs whitespace-nowrap">{utcCell(row.lastCallAt)}</td>
    </>
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
        with its bearer (plan purchases, net of refunds), what it drew on credit, and its served calls on credit. Pay-as-you-go calls are paid by a wallet and
        belong to no credential: they are under paying wallets above.
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
                        <CreditCells testId="credential" row={c} />
                        <td className="font-mono text-xs whitespace-nowrap">{utcCell(c.createdAt)}</td>
                        <td className="font-mono text-xs whitespace-nowrap">{utcCell(c.expiresAt)}</td>
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
        Who pays: the wallets that paid in a range, by spend net of refunds; the people who claimed agent credentials, with the plans and credit their
        credentials share; and every agent credential registered at this storefront.
      </PageHeader>
      <PayingWallets />
      <People />
      <Credentials />
    </>
  );
}
