import { Suspense } from "react";
import { Customers } from "./_components/customers";

// /console/customers - paying wallets (spend, calls, last call), people (claimed humans and the credit their credentials share) and agent credentials
export default function CustomersPage() {
  return (
    <Suspense>
      <Customers />
    </Suspense>
  );
}
