"use client";

import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "../../../providers";
import { Empty, Loaded, Section, TABLE_CLASS, TableScroll } from "../../../_components/section";
import { OwnerOnly } from "../../../_components/owner-only";
import { EndpointForm } from "./endpoint-form";
import { EndpointRow } from "./endpoint-row";

/** The seller's endpoints, each with its state and last delivery; picking one shows its deliveries below. */
export function Endpoints({ selected, onSelect }: { selected: string | null; onSelect: (id: string | null) => void }) {
  const trpc = useTRPC();
  const q = useQuery(trpc.webhooks.endpoints.queryOptions());
  return (
    <Section title="Endpoints" testId="section-webhook-endpoints">
      <Loaded query={q} what="webhook endpoints">
        {(endpoints) =>
          endpoints.length === 0 ? (
            <Empty testId="webhooks-empty">No endpoint yet: add one below and events start flowing to it at once.</Empty>
          ) : (
            <TableScroll label="Webhook endpoints">
              <table className={TABLE_CLASS} data-testid="webhook-endpoints">
                <thead className="text-slate-500">
                  <tr>
                    <th className="py-1">URL</th>
                    <th>Events</th>
                    <th>State</th>
                    <th>Last delivery (UTC)</th>
                    <th className="text-right">Pending</th>
                    <th className="text-right">Failed, 24 h</th>
                    <th />
                  </tr>
                </thead>
                <tbody>
                  {endpoints.map((e) => (
                    <EndpointRow key={e.id} e={e} selected={selected === e.id} onSelect={() => onSelect(selected === e.id ? null : e.id)} />
                  ))}
                </tbody>
              </table>
            </TableScroll>
          )
        }
      </Loaded>
      <OwnerOnly className="mt-4">
        <EndpointForm />
      </OwnerOnly>
    </Section>
  );
}
