import { Suspense } from "react";
import { Overview } from "./_overview/overview";

// /console - the overview: revenue, paid calls, payers, revenue per day and calls per operation
export default function OverviewPage() {
  return (
    <Suspense>
      <Overview />
    </Suspense>
  );
}
