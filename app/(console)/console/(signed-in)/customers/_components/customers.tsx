"use client";

import { RangePicker } from "../../../_components/range-picker";
import { PageHeader } from "../../../_components/section";
import { Credentials } from "./credentials";
import { People } from "./people";
import { PayingWallets } from "./paying-wallets";

export function Customers() {
  return (
    <>
      <PageHeader title="Customers" actions={<RangePicker />}>
        Who pays: the wallets that paid in a range, by spend net of refunds; the people who claimed agent credentials, with the plans and credit their
        credentials share; and every agent credential registered at this storefront. Card payers are not listed by name yet: a checkout records no payer.
      </PageHeader>
      <PayingWallets />
      <People />
      <Credentials />
    </>
  );
}
