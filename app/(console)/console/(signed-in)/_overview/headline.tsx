"use client";

import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "../../providers";
import { change, usd } from "../../_components/format";
import { Kpi, Loaded } from "../../_components/section";

export const direction = (p: string | null) => (p === null ? "none" : p.startsWith("+") ? "up" : p.startsWith("-") ? "down" : "flat");
// "—" when the previous period had nothing to compare with (a change from zero is not a percentage).
export const vs = (p: string | null, what: string) => ({ text: `${change(p)} vs ${what}`, direction: direction(p) }) as const;

/**
 * Net revenue today against yesterday at the same time, shown above the range (unless the range is today: each figure
 * once). Month to date, 7 and 30 days are the range picker's presets, where their figures show with the chart.
 */
export function Headline({ hidden }: { hidden?: boolean }) {
  const trpc = useTRPC();
  // The headline does not depend on the range picked below.
  const q = useQuery(trpc.analytics.headline.queryOptions());
  if (hidden) return null;
  return (
    <Loaded query={q} what="revenue">
      {(h) => (
        <div className="mt-4 grid gap-3 sm:grid-cols-2 lg:grid-cols-4" data-testid="headline">
          <Kpi
            testId="headline-today"
            label="Net revenue today"
            value={usd(h.today.netUsd)}
            exact={h.today.netUsd}
            change={vs(h.today.changePercent, "yesterday, same time")}
          />
        </div>
      )}
    </Loaded>
  );
}
