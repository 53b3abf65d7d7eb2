"use client";

import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "../../../providers";
import { utcCell } from "../../../_components/format";
import { Loaded, TABLE_CLASS } from "../../../_components/section";

/** One delivery: the body sent (the event) and every attempt with what the endpoint answered. */
export function DeliveryDetail({ id }: { id: string }) {
  const trpc = useTRPC();
  // Refreshed while open: a resend or a retry adds an attempt.
  const q = useQuery(trpc.webhooks.delivery.queryOptions({ id }, { refetchInterval: 5_000 }));
  return (
    <div className="my-2 grid gap-3 rounded border border-slate-200 bg-slate-50 p-3 lg:grid-cols-2" data-testid="delivery-detail">
      <Loaded query={q} what="the delivery">
        {(d) => (
          <>
            <div>
              <h4 className="text-sm font-medium">Body</h4>
              <pre className="mt-1 max-h-80 overflow-auto rounded bg-white p-2 text-xs" data-testid="delivery-payload">
                {d.payload}
              </pre>
            </div>
            <div>
              <h4 className="text-sm font-medium">Attempts</h4>
              <table className={`${TABLE_CLASS} mt-1`} data-testid="delivery-attempts">
                <thead className="text-slate-500">
                  <tr>
                    <th>At (UTC)</th>
                    <th className="text-right">HTTP</th>
                    <th className="text-right">Latency</th>
                    <th>Answer</th>
                    <th>Instance</th>
                  </tr>
                </thead>
                <tbody>
                  {d.attemptLog.map((a) => (
                    <tr key={a.at + a.instance} className="border-t border-slate-100 align-top">
                      <td className="font-mono text-xs whitespace-nowrap">{utcCell(a.at)}</td>
                      <td className="text-right tabular-nums">{a.status ?? "—"}</td>
                      <td className="text-right tabular-nums">{a.latencyMs} ms</td>
                      <td className="max-w-xs break-all font-mono text-xs">{a.error ?? a.response ?? ""}</td>
                      <td className="font-mono text-xs">{a.instance}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </>
        )}
      </Loaded>
    </div>
  );
}
