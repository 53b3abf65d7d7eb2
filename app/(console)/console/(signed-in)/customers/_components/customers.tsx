"use client";

import { RangePicker } from "../../../_components/range-picker";
import { PageHeader } from "../../../_components/section";
import { Credentials } from "./credentials";
import { People } from "./people";
import { PayingWallets } from "./paying-wallets";
import { CardPayers } from "./card-payers";

export function Customers() {
  return (
    <>
      <PageHeader title="Customers" actions={<RangePicker />}>
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
