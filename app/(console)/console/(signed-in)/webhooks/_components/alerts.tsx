"use client";

import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "../../../providers";
import { utcCell } from "../../../_components/format";
import { Empty, Loaded, Section } from "../../../_components/section";

/** What the seller was emailed about: open alerts first, then the last resolved ones. */
export function Alerts() {
  const trpc = useTRPC();
  const q = useQuery(trpc.webhooks.alerts.queryOptions(undefined, { refetchInterval: 30_000 }));
  return (
    <Section title="Alerts" testId="section-alerts">
      <p className="mb-3 text-sm text-slate-500">
        Settlements pending for minutes, an operation&apos;s upstream failing, a card refund the processor refused, an endpoint disabled: each is emailed to
        this storefront&apos;s console users once and sent as an event.
      </p>
      <Loaded query={q} what="alerts">
        {(alerts) =>
          alerts.length === 0 ? (
            <Empty testId="alerts-empty">No alert so far.</Empty>
          ) : (
            <ul className="grid gap-2 text-sm" data-testid="alerts">
              {alerts.map((a) => (
                <li key={a.id} className="rounded border border-slate-200 p-2" data-testid={`alert-${a.kind}`}>
                  <span
                    className={`mr-2 rounded px-2 py-0.5 text-xs ${a.status === "open" ? "bg-red-100 text-red-900" : "bg-slate-100 text-slate-700"}`}
                    data-testid="alert-state"
                    title={a.status}
                  >
                    {a.status === "open" ? "Open" : a.status === "resolved" ? "Resolved" : a.status}
                  </span>
                  <span className="font-mono text-xs text-slate-500">
                    {utcCell(a.openedAt)}
                    {a.resolvedAt ? ` → ${utcCell(a.resolvedAt)}` : ""}
                  </span>
                  <p className="mt-1">{a.message}</p>
                </li>
              ))}
            </ul>
          )
        }
      </Loaded>
    </Section>
  );
}
