"use client";

import { useInfiniteQuery } from "@tanstack/react-query";
import { useTRPC } from "../../../providers";
import { BUTTON_SECONDARY, Empty, Loaded, PageHeader, Section, ShowOlder } from "../../../_components/section";
import { useSearchState } from "../../../_components/use-search-state";
import { PaymentFilters, usePaymentFilter } from "./payment-filters";
import { PaymentsSummary } from "./payments-summary";
import { PaymentsTable } from "./payments-table";
import { PaymentsTotals } from "./payments-totals";
import { PersonControlsNote } from "../../../_components/person-controls";

export function PaymentsPage() {
  const trpc = useTRPC();
  const { params } = useSearchState();
  const filter = usePaymentFilter();
  const list = useInfiniteQuery(trpc.payments.list.infiniteQueryOptions(filter, { getNextPageParam: (last) => last.nextCursor }));
  const rows = list.data?.pages.flatMap((p) => p.payments) ?? [];
  const exportHref = `/console/payments/export${params.toString() ? `?${params.toString()}` : ""}`;
  return (
    <>
      <PageHeader
        title="Payments"
        actions={
          <a href={exportHref} className={BUTTON_SECONDARY} data-testid="payments-export" download>
            Export CSV
          </a>
        }
      >
        Money that moved, on every rail: calls paid per request, card checkouts and plan purchases. Calls served on prepaid credit are usage and are on the
        Usage page. Filters stay in the address, so a view can be bookmarked or shared; the CSV export takes the same filters.{" "}
        <span data-testid="rails-explained">
          Rails: <strong>x402</strong> and <strong>MPP</strong> are two protocols by which an agent pays in USDC (a dollar stablecoin) from its own wallet,
          settled on the Base network; <strong>card</strong> is a person paying on the hosted checkout.
        </span>
      </PageHeader>
      <PaymentsTotals />
      <PersonControlsNote />
      <PaymentFilters />
      <Section title="Results" testId="section-payments" actions={<PaymentsSummary filter={filter} />}>
        <Loaded query={list} what="payments">
          {() =>
            rows.length === 0 ? (
              <Empty testId="payments-empty">No payments match. Unpaid 402 challenges are hidden unless you ask for them; payments appear as agents pay.</Empty>
            ) : (
              <>
                <PaymentsTable rows={rows} />
                <p className="mt-2 text-xs text-slate-600" data-testid="payments-shown">
                  {rows.length} shown{list.hasNextPage ? ", more below" : ""}. Amounts in USD.
                </p>
                <ShowOlder query={list} label="Show more payments" testId="payments-more" />
              </>
            )
          }
        </Loaded>
      </Section>
    </>
  );
}
