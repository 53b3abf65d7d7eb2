"use client";

import { useInfiniteQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useTRPC } from "../../../providers";
import { BUTTON_SECONDARY, Empty, LINK, Loaded, PageHeader, Section, ShowOlder } from "../../../_components/section";
import { useSearchState } from "../../../_components/use-search-state";
import { PaymentFilters, usePaymentFilter } from "../../payments/_components/payment-filters";
import { PaymentsSummary } from "../../payments/_components/payments-summary";
import { PaymentsTable } from "../../payments/_components/payments-table";
import { MeterUsage } from "../../plans/_components/meter-usage";

/** Usage apart from money: calls served on prepaid credit (draws), each a hold on credit bought earlier. */
export function UsagePage() {
  const trpc = useTRPC();
  const filter = usePaymentFilter({ usage: true });
  const list = useInfiniteQuery(trpc.payments.list.infiniteQueryOptions(filter, { getNextPageParam: (last) => last.nextCursor }));
  const rows = list.data?.pages.flatMap((p) => p.payments) ?? [];
  const { params } = useSearchState();
  const exportHref = `/console/usage/export${params.toString() ? `?${params.toString()}` : ""}`;
  return (
    <>
      <PageHeader
        title="Usage"
        actions={
          <a href={exportHref} className={BUTTON_SECONDARY} data-testid="usage-export" download>
            Export CSV
          </a>
        }
      >
        Calls served on prepaid credit. A draw moves no money: the credit was paid for when the plan was bought (a payment, on{" "}
        <Link className={LINK} href="/console/payments?operation=plan_purchase">
          Payments
        </Link>
        ), and a draw spends it at the meter&apos;s per-request price. Draws are not refundable; a purchase is.
      </PageHeader>
      <MeterUsage />
      <PaymentFilters usage />
      <Section title="Calls on prepaid credit" testId="section-draws" actions={<PaymentsSummary filter={filter} what="draws" />}>
        <Loaded query={list} what="draws">
          {() =>
            rows.length === 0 ? (
              <Empty testId="draws-empty">No call was served on prepaid credit yet. Draws appear here when agents with a plan call.</Empty>
            ) : (
              <>
                <PaymentsTable rows={rows} label="Draws on prepaid credit" />
                <ShowOlder query={list} label="Show more draws" testId="draws-more" />
              </>
            )
          }
        </Loaded>
      </Section>
    </>
  );
}
