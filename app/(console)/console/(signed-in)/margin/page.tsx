import { Suspense } from "react";
import { Margin } from "./_components/margin";

// /console/margin - revenue per operation and rail against what serving it cost (gas, fees) where known
export default function MarginPage() {
  return (
    <Suspense>
      <Margin />
    </Suspense>
  );
}
