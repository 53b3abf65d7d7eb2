"use client";

import { useInfiniteQuery, useMutation, useQueryClient } from "@tanstack/react-query";
import { Fragment, useState } from "react";
import { useTRPC } from "../../../providers";
import { useIsOwner, VIEWER_REASON } from "../../../_components/owner-only";
import { utcCell } from "../../../_components/format";
import { Empty, INPUT, Loaded, Section, ShowOlder, TABLE_CLASS, TableScroll } from "../../../_components/section";
import { useSearchField } from "../../../_components/use-search-state";
import { DeliveryDetail } from "./delivery-detail";
import { DELIVERY_WORDS } from "./delivery-words";

const STATUS_STYLE: Record<string, string> = {
  succeeded: "bg-emerald-100 text-emerald-900",
  pending: "bg-amber-100 text-amber-900",
  failed: "bg-red-100 text-red-900",
};

/** One endpoint's deliveries, newest first: state, attempts, the last answer (status, latency, body), and Resend. */
export function Deliveries({ endpointId }: { endpointId: string }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const [status, setStatus] = useSearchField("status");
  const [open, setOpen] = useState<string | null>(null);
  const owner = useIsOwner();
  const input = { endpointId, ...(status ? { status: status as "pending" | "succeeded" | "failed" } : {}) };
  const q = useInfiniteQuery(trpc.webhooks.deliveries.infiniteQueryOptions(input, { getNextPageParam: (last) => last.nextCursor, refetchInterval: 5_000 }));
  const resend = useMutation(
    trpc.webhooks.resend.mutationOptions({
      onSuccess: async () => {
        await qc.invalidateQueries({ queryKey: trpc.webhooks.deliveries.pathKey() });
        await qc.invalidateQueries({ queryKey: trpc.webhooks.delivery.pathKey() });
      },
    }),
  );
  const rows = q.data?.pages.flatMap((p) => p.deliveries) ?? [];
  return (
    <Section
      title="Deliveries"
      testId="section-webhook-deliveries"
      actions={
        <label className="text-sm text-slate-600">
          State{" "}
          <select className={INPUT} value={status} onChange={(e) => setStatus(e.target.value)} data-testid="deliveries-status">
            <option value="">all</option>
            <option value="pending">pending</option>
            <option value="succeeded">succeeded</option>
            <option value="failed">failed</option>
          </select>
        </label>
      }
    >
      <Loaded query={q} what="deliveries">
        {() =>
          rows.length === 0 ? (
            <Empty testId="deliveries-empty">No delivery{status ? ` ${status}` : ""} yet: events made from now on are sent here.</Empty>
          ) : (
            <TableScroll label="Webhook deliveries">
              <table className={TABLE_CLASS} data-testid="webhook-deliveries">
                <thead className="text-slate-500">
                  <tr>
                    <th className="py-1">Event (UTC)</th>
                    <th>Type</th>
                    <th>State</th>
                    <th className="text-right">Attempts</th>
                    <th className="text-right">HTTP</th>
                    <th className="text-right">Latency</th>
                    <th>Response</th>
                    <th />
                  </tr>
                </thead>
                <tbody>
                  {rows.map((d) => (
                    <Fragment key={d.id}>
                      <tr className="border-t border-slate-100 align-top" data-testid={`delivery-${d.eventId}`}>
                        <td className="py-1.5 font-mono text-xs whitespace-nowrap">{utcCell(d.createdAt)}</td>
                        <td className="font-mono text-xs">
                          <button
                            type="button"
                            className="text-indigo-700 hover:underline"
                            onClick={() => setOpen(open === d.id ? null : d.id)}
                            data-testid="delivery-open"
                          >
                            {d.eventType}
                          </button>
                        </td>
                        <td>
                          <span className={`rounded px-2 py-0.5 text-xs ${STATUS_STYLE[d.status]}`} data-testid="delivery-state" title={d.status}>
                            {DELIVERY_WORDS[d.status] ?? d.status}
                          </span>
                          {d.nextAttemptAt && <p className="text-xs text-slate-500">next {utcCell(d.nextAttemptAt)}</p>}
                        </td>
                        <td className="text-right tabular-nums">{d.attempts}</td>
                        <td className="text-right tabular-nums" data-testid="delivery-http">
                          {d.lastStatus ?? "—"}
                        </td>
                        <td className="text-right tabular-nums whitespace-nowrap">{d.lastLatencyMs == null ? "—" : `${d.lastLatencyMs} ms`}</td>
                        <td className="max-w-xs truncate font-mono text-xs" title={[d.lastError, d.lastResponse].filter(Boolean).join(": ") || undefined}>
                          {d.lastResponse || d.lastError || "—"}
                        </td>
                        <td className="text-right">
                          <button
                            type="button"
                            className="text-sm text-indigo-700 hover:underline disabled:opacity-50"
                            disabled={resend.isPending || d.status === "pending" || !owner}
                            title={owner ? undefined : VIEWER_REASON}
                            onClick={() => resend.mutate({ id: d.id })}
                            data-testid="delivery-resend"
                          >
                            Resend
                          </button>
                        </td>
                      </tr>
                      {open === d.id && (
                        <tr>
                          <td colSpan={8}>
                            <DeliveryDetail id={d.id} />
                          </td>
                        </tr>
                      )}
                    </Fragment>
                  ))}
                </tbody>
              </table>
            </TableScroll>
          )
        }
      </Loaded>
      {resend.error && (
        <p role="alert" className="mt-2 text-sm text-red-700">
          {resend.error.message}
        </p>
      )}
      <ShowOlder query={q} label="Show older deliveries" />
    </Section>
  );
}
