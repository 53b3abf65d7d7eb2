"use client";

import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "../../providers";
import { change, usd } from "../../_components/format";
import { Kpi, Loaded } from "../../_components/section";

export const direction = (p: string | null) => (p === null ? "none" : p.startsWith("+") ? "up" : p.startsWith("-") ? "down" : "flat");
// "—" when the previous period had nothing to compare with (a change from zero is not a percentage).
export const vs = (p: string | null, what: string) => ({ text: `${change(p)} vs ${what}`, direction: direction(p) }) as const;

/** Net revenue today, month to date and over the rolling 7 and 30 days, each against its previous period. */
export function Headline() {
  const trpc = useTRPC();
  // The headline does not depend on the range picked below.
  const q = useQuery(trpc.analytics.headline.queryOptions());
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
          <Kpi
            testId="headline-mtd"
            label="Month to date"
            value={usd(h.monthToDate.netUsd)}
            exact={h.monthToDate.netUsd}
            change={vs(h.monthToDate.changePercent, "last month, same days")}
            note={`Since ${h.monthToDate.from} (UTC)`}
          />
          <Kpi
            testId="headline-7d"
            label="Last 7 days"
            value={usd(h.last7Days.netUsd)}
            exact={h.last7Days.netUsd}
            change={vs(h.last7Days.changePercent, "the 7 days before")}
          />
          <Kpi
            testId="headline-30d"
            label="Last 30 days"
            value={usd(h.last30Days.netUsd)}
            exact={h.last30Days.netUsd}
            change={vs(h.last30Days.changePercent, "the 30 days before")}
          />
        </div>
      )}
    </Loaded>
  );
}
