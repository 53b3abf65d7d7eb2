import { Suspense } from "react";
import { PaymentsPage } from "./_components/payments-page";

// /console/payments - every payment, filterable (state, rail, operation, payer, days), with a CSV export
export default function Payments() {
  return (
    <Suspense>
      <PaymentsPage />
    </Suspense>
  );
}
