"use client";

import { count, usd } from "../../../_components/format";
import { Section, STACKED_TABLE_CLASS, TableScroll } from "../../../_components/section";
import type { Outputs } from "../../../_components/types";

type Funnel = Outputs["analytics"]["funnel"];

const TRANSPORT_LABEL: Record<Funnel["byTransport"][number]["transport"], string> = { http: "HTTP API calls", mcp: "MCP tool calls" };

/** HTTP API calls beside MCP tool calls: how far their proofs got. A 402 is not split (see the note). */
export function ByTransportTable({ f }: { f: Funnel }) {
  return (
    <Section title="HTTP and MCP" testId="section-funnel-transports">
      <TableScroll label="Funnel per transport">
        <table className={STACKED_TABLE_CLASS} data-testid="funnel-by-transport">
          <thead className="text-slate-600">
            <tr>
              <th>Called over</th>
              <th className="text-right">Answered</th>
              <th className="text-right">Served</th>
              <th className="text-right">Paid</th>
              <th className="text-right">Net revenue</th>
            </tr>
          </thead>
          <tbody>
            {f.byTransport.map((t) => (
              <tr key={t.transport} className="border-t border-slate-100" data-testid={`funnel-transport-${t.transport}`}>
                <td className="py-1.5" data-label="Called over">
                  {TRANSPORT_LABEL[t.transport]}
                </td>
                <td className="text-right tabular-nums" data-label="Answered">
                  {count(t.answered)}
                </td>
                <td className="text-right tabular-nums" data-label="Served">
                  {count(t.served)}
                </td>
                <td className="text-right tabular-nums" data-testid="funnel-transport-paid" data-label="Paid">
                  {count(t.settled)}
                </td>
                <td className="text-right tabular-nums" data-label="Net revenue">
                  {usd(t.netUsd)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
      <p className="mt-2 text-xs text-slate-600">
        A 402 answers an HTTP call and an MCP tool call alike, and unpaid ones are not kept: the split starts at the proof. Prepaid credit draws are usage and
        are not counted here.
      </p>
    </Section>
  );
}
