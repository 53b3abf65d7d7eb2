"use client";

import { useInfiniteQuery } from "@tanstack/react-query";
import { useTRPC } from "../../../providers";
import { utcCell } from "../../../_components/format";
import Link from "next/link";
import { customerHref } from "../[id]/_components/customer-detail";
import { Empty, LINK, Loaded, Section, STACKED_TABLE_CLASS, ShowOlder, TableScroll } from "../../../_components/section";
import { CreditCells } from "./credit-cells";

/** Every agent credential registered here, with its money. */
export function Credentials() {
  const trpc = useTRPC();
  const q = useInfiniteQuery(trpc.customers.credentials.infiniteQueryOptions({}, { getNextPageParam: (last) => last.nextCursor }));
  const rows = q.data?.pages.flatMap((p) => p.credentials) ?? [];
  return (
    <Section title="Agent credentials" testId="section-credentials">
      <p className="mb-3 text-sm text-slate-700">
        Credentials agents registered here (POST /agent/identity), newest first, with their money: live prepaid credit and the plans it is on, what each paid
        with its bearer (plan purchases, net of refunds), what it drew on credit, and its served calls on credit. An unclaimed credential expires after a few
        days, and the credit it bought dies with it. Pay-as-you-go calls are paid by a wallet and belong to no credential: they are under paying wallets above.
      </p>
      <Loaded query={q} what="agent credentials">
        {() =>
          rows.length === 0 ? (
            <Empty testId="credentials-empty">No agent has registered a credential yet.</Empty>
          ) : (
            <>
              <TableScroll label="Agent credentials">
                <table className={STACKED_TABLE_CLASS} data-testid="credentials-table">
                  <thead className="text-slate-600">
                    <tr>
                      <th className="py-1">Credential</th>
                      <th>Claimed by</th>
                      <th>Plans (credit left)</th>
                      <th className="text-right">Spend (net)</th>
                      <th className="text-right">Drawn on credit</th>
                      <th className="text-right">Calls (last, UTC)</th>
                      <th>Registered, expires (UTC)</th>
                    </tr>
                  </thead>
                  <tbody>
                    {rows.map((c) => (
                      <tr key={c.id} className="border-t border-slate-100 align-top" data-testid={`credential-row-${c.id}`}>
                        <td className="py-1.5" data-label="Credential">
                          <Link className={`${LINK} font-mono text-xs whitespace-nowrap`} href={customerHref(c.id)}>
                            {c.id}
                          </Link>
                          <span className="block text-xs text-slate-600">
                            {c.kind.replace("_", " ")} · {c.state.replace("_", " ")}
                          </span>
                        </td>
                        <td className="break-all" data-label="Claimed by">
                          {c.human ?? "—"}
                        </td>
                        <CreditCells testId="credential" row={c} />
                        <td className="font-mono text-xs whitespace-nowrap" data-label="Registered, expires (UTC)">
                          {utcCell(c.createdAt)}
                          <span className={`block ${c.expiresAt ? "text-amber-800" : "text-slate-600"}`}>
                            {c.expiresAt ? `expires ${utcCell(c.expiresAt)}` : "does not expire"}
                          </span>
                        </td>
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
