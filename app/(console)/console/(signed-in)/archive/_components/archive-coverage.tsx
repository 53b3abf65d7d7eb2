"use client";

import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "../../../providers";
import { Empty, Loaded, PageHeader, Section, TABLE_CLASS, TableScroll } from "../../../_components/section";

export function ArchiveCoverage() {
  const trpc = useTRPC();
  const coverage = useQuery(trpc.archive.coverage.queryOptions());
  return (
    <>
      <PageHeader title="Archive coverage" />
      <Section title="Feeds and entities">
        <p className="mb-3 text-sm text-slate-500">
          The market data archive is global to this deployment (captured once per UTC day by the built-in market data upstream), not per seller. The coverage is
          the one the paid catalog, GET /api/v1/archive, reports.
        </p>
        <Loaded query={coverage} what="the archive">
          {(data) =>
            data.feeds.length === 0 ? (
              <Empty testId="archive-empty">No archive feeds.</Empty>
            ) : (
              <TableScroll label="Archive coverage per feed and entity">
                <table className={TABLE_CLASS} data-testid="archive-coverage">
                  <thead className="text-slate-600">
                    <tr>
                      <th className="py-1">Feed</th>
                      <th>Entity</th>
                      <th>First day</th>
                      <th>Last day</th>
                      <th className="text-right">Days</th>
                      <th>Last captured</th>
                    </tr>
                  </thead>
                  <tbody>
                    {data.feeds.flatMap((f) =>
                      f.entities.map((e) => (
                        <tr key={`${f.feed}/${e.entity}`} className="border-t border-slate-100" data-testid={`archive-row-${f.feed}-${e.entity}`}>
                          <td className="py-2 font-mono" title={f.description ?? undefined}>
                            {f.feed}
                          </td>
                          <td className="font-mono">{e.entity}</td>
                          {e.days === 0 ? (
                            <td colSpan={4} className="text-slate-600">
                              no captured day (not captured yet, or the provider does not include this data)
                            </td>
                          ) : (
                            <>
                              <td className="font-mono">{e.firstDate}</td>
                              <td className="font-mono">{e.lastDate}</td>
                              <td className="text-right font-mono">{e.days}</td>
                              <td className="font-mono text-xs">
                                {e.lastCapturedAt ? `${e.lastCapturedAt.slice(0, 10)} ${e.lastCapturedAt.slice(11, 19)} UTC` : "-"}
                              </td>
                            </>
                          )}
                        </tr>
                      )),
                    )}
                  </tbody>
                </table>
              </TableScroll>
            )
          }
        </Loaded>
      </Section>
    </>
  );
}
