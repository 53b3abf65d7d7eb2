"use client";

import { count, usd } from "../../_components/format";
import type { Outputs } from "../../_components/types";

const LABEL = { http: "HTTP API", mcp: "MCP tool calls" } as const;

/** Paid calls and net revenue over HTTP beside MCP tool calls, one line under the revenue breakdown. */
export function ByTransport({ o }: { o: Outputs["analytics"]["overview"] }) {
  return (
    <p className="mt-3 text-sm text-slate-700" data-testid="overview-by-transport">
      {o.byTransport.map((t, i) => (
        <span key={t.transport} data-testid={`overview-transport-${t.transport}`}>
          {i > 0 && " · "}
          {LABEL[t.transport]}: {count(t.calls)} paid {t.calls === 1 ? "call" : "calls"}, {usd(t.netUsd)} net
        </span>
      ))}
    </p>
  );
}
