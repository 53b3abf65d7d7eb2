import { Suspense } from "react";
import { Funnel } from "./_components/funnel";

// /console/funnel - the 402 funnel: challenges issued -> proofs received -> verified -> served -> settled
export default function FunnelPage() {
  return (
    <Suspense>
      <Funnel />
    </Suspense>
  );
}
