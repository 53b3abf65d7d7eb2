"use client";

import { RangePicker } from "../../../_components/range-picker";
import { BUTTON_SECONDARY, PageHeader } from "../../../_components/section";
import { useSearchState } from "../../../_components/use-search-state";
import { Credentials } from "./credentials";
import { People } from "./people";
import { PayingWallets } from "./paying-wallets";
import { CardPayers } from "./card-payers";

/** The range's customers as CSV (the same range as the page). */
function ExportCustomers() {
  const { params } = useSearchState();
  const q = new URLSearchParams([...params].filter(([k]) => ["range", "from", "to"].includes(k))).toString();
  return (
    <a className={BUTTON_SECONDARY} href={`/console/customers/export${q ? `?${q}` : ""}`} download data-testid="customers-export">
      Export CSV
    </a>
  );
}

export function Customers() {
  return (
    <>
      <PageHeader
        title="Customers"
        actions={
          <>
            <RangePicker />
            <ExportCustomers />
          </>
        }
      >
        Who pays: the wallets that paid in a range, by spend net of refunds; the people who paid card checkouts, by the email they gave; the people who claimed
        agent credentials, with the plans and credit their credentials share; and every agent credential registered at this storefront.
      </PageHeader>
      <PayingWallets />
      <CardPayers />
      <People />
      <Credentials />
    </>
  );
}
