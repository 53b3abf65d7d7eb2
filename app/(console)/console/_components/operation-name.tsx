"use client";

import { useQuery } from "@tanstack/react-query";
import { useCallback, useMemo } from "react";
import { useTRPC } from "../providers";
import { fitAxis, operationLabel, type AxisLabel } from "./format";

/**
 * An operation's title as a seller reads it: its catalog summary (what discovery and the coverage page call it, from the
 * operations registry by way of the seed) up to its first colon, without its parentheses: "VIX daily open, high, low,
 * close" rather than `vix`. The whole summary and the key stay on hover.
 */
export function shortTitle(summary: string): string {
  const head = summary.split(": ")[0]!;
  return head.replace(/\s*\([^)]*\)/g, "").trim() || summary;
}

/** Key -> the seller's catalog summary, from the catalog query (cached; pages that show operations prefetch it). */
export function useOperationTitles(): (key: string | null | undefined) => { title: string; hover: string } {
  const trpc = useTRPC();
  const q = useQuery({ ...trpc.catalog.overview.queryOptions(), staleTime: 5 * 60_000 });
  const summaries = useMemo(() => new Map((q.data?.services ?? []).flatMap((s) => s.operations.map((o) => [o.key, o.summary] as const))), [q.data]);
  return useCallback(
    (key) => {
      const summary = key ? summaries.get(key) : undefined;
      if (!key || !summary) return { title: operationLabel(key), hover: key ?? "" };
      return { title: shortTitle(summary), hover: `${summary} (${key})` };
    },
    [summaries],
  );
}

/** A chart's bar named by its operation's title, cut to fit the axis; the whole title and the key on hover and in the tooltip. */
export function useOperationAxisLabels(): (key: string) => AxisLabel {
  const titles = useOperationTitles();
  return useCallback(
    (key) => {
      const { title, hover } = titles(key);
      const full = hover !== key ? hover : title === key ? key : `${title} (${key})`;
      return { short: fitAxis(title), full, operation: key };
    },
    [titles],
  );
}

/** An operation by its title; its key in the hover and in `data-operation` (for specs and tools). */
export function OperationName({ op, testId, className }: { op: string | null | undefined; testId?: string; className?: string }) {
  const { title, hover } = useOperationTitles()(op);
  return (
    <span className={className} title={hover} data-operation={op ?? undefined} data-testid={testId}>
      {title}
    </span>
  );
}
