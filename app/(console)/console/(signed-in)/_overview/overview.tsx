"use client";

import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "../../providers";
import { count, usd } from "../../_components/format";
import { RangePicker, describeRange } from "../../_components/range-picker";
import { Kpi, Loaded, PageHeader } from "../../_components/section";
import { rangeFrom, useSearchState } from "../../_components/use-search-state";
import { CallsSection } from "./calls-section";
import { Headline, vs } from "./headline";
import { Health } from "./health";
import { RevenueBreakdown } from "./revenue-breakdown";
import { RevenueSection } from "./revenue-section";
import { SetupChecklist } from "./setup-checklist";
import { TopCustomers } from "./top-customers";

export function Overview() {
  const trpc = useTRPC();
  const { params } = useSearchState();
  const range = rangeFrom(params);
  const q = useQuery(trpc.analytics.overview.queryOptions(range));
  // Card payers are customers too (by the email they gave, else by card): counted beside the paying wallets.
  const cardPayers = useQuery(trpc.customers.cardPayers.queryOptions(range)).data?.payers.length ?? 0;
  return (
    <>
      <PageHeader title="Overview">
        Net revenue is what the ledger holds: charges minus refunds, in USD. Draws on prepaid credit are usage, not revenue (the plan purchase was). Times are
        UTC; a range that ends today is compared with the previous period up to the same time of day.
      </PageHeader>
      <SetupChecklist />
      <Headline hidden={range.preset === "today"} />
      <div className="mt-8 flex flex-wrap items-center justify-between gap-3">
        <h2 className="text-lg font-medium" data-testid="range-title">
          {q.data ? describeRange(q.data.range) : "\u00a0"}
        </h2>
        <RangePicker />
      </div>
      <Loaded query={q} what="the overview">
        {(o) => (
          <>
            <div className="mt-3 grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
              <Kpi
                testId="kpi-net-revenue"
                label="Net revenue"
                value={usd(o.totals.netUsd)}
                exact={o.totals.netUsd}
                change={vs(o.totals.changePercent, "the previous period")}
                note={`${usd(o.totals.chargedUsd)} charged, ${usd(o.totals.refundedUsd)} refunded`}
              />
              <Kpi
                testId="kpi-paid-calls"
                label="Paid calls"
                value={count(o.totals.paidCalls)}
                change={vs(o.totals.paidCallsChangePercent, "the previous period")}
                note={o.totals.creditCalls > 0 ? `${count(o.totals.creditCalls)} on prepaid credit (${usd(o.totals.drawnUsd)} drawn)` : undefined}
              />
              <Kpi
                testId="kpi-wallets"
                label="Paying customers"
                value={count(o.totals.wallets + cardPayers)}
                note={[
                  `${count(o.totals.wallets)} wallet${o.totals.wallets === 1 ? "" : "s"}, ${count(cardPayers)} card payer${cardPayers === 1 ? "" : "s"}`,
                  o.totals.payerKinds.includes("credential") && o.totals.credentials > 0
                    ? `; ${count(o.totals.credentials)} agent credentials drew on prepaid credit`
                    : "",
                ].join("")}
              />
              <Kpi testId="kpi-refunds" label="Refunds" value={count(o.totals.refunds)} note={`${usd(o.totals.refundedUsd)} returned`} />
            </div>
            <RevenueSection o={o} />
            <RevenueBreakdown o={o} />
            <TopCustomers range={range} />
            <Health o={o} funnelHref={`/console/funnel${params.toString() ? `?${params.toString()}` : ""}`} />
            <CallsSection o={o} />
          </>
        )}
      </Loaded>
    </>
  );
}
