"use client";

import { useInfiniteQuery } from "@tanstack/react-query";
import { useTRPC } from "../../../providers";
import { utcCell } from "../../../_components/format";
import Link from "next/link";
import { customerHref } from "../[id]/_components/customer-detail";
import { Empty, LINK, Loaded, Section, STACKED_TABLE_CLASS, ShowOlder, TableScroll } from "../../../_components/section";
import { CreditCells } from "./credit-cells";

/** The people who claimed credentials here, with the plans and credit their credentials share. */
export function People() {
  const trpc = useTRPC();
  const q = useInfiniteQuery(trpc.customers.humans.infiniteQueryOptions({}, { getNextPageParam: (last) => last.nextCursor }));
  const rows = q.data?.pages.flatMap((p) => p.humans) ?? [];
  return (
    <Section title="People" testId="section-people">
      <p className="mb-3 text-sm text-slate-700">
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
              <TableScroll label="People">
                <table className={STACKED_TABLE_CLASS} data-testid="people-table">
                  <thead className="text-slate-600">
                    <tr>
                      <th className="py-1">Person</th>
                      <th>Credentials</th>
                      <th>Plans (credit left)</th>
                      <th className="text-right">Credit bought</th>
                      <th className="text-right">Spend (net)</th>
                      <th className="text-right">Drawn on credit</th>
                      <th className="text-right">Calls (last, UTC)</th>
                      <th>First claim (UTC)</th>
                    </tr>
                  </thead>
                  <tbody>
                    {rows.map((h) => (
                      <tr key={h.id} className="border-t border-slate-100 align-top" data-testid={`person-row-${h.id}`}>
                        <td className="py-1.5 break-all" data-testid="person-email" data-label="Person">
                          <Link className={LINK} href={customerHref(h.email)}>
                            {h.email}
                          </Link>
                        </td>
                        <td data-testid="person-credentials" data-label="Credentials">
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
                        <td className="font-mono text-xs whitespace-nowrap" data-label="First claim (UTC)">
                          {utcCell(h.since)}
                        </td>
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
