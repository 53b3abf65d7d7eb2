import { Prefetched } from "../../../_components/prefetch";
import { PaymentDetail } from "./_components/payment-detail";

// /console/payments/{id} - one payment: its states over time, the request it paid for, where the money moved, refund
export default async function PaymentPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return (
    <Prefetched load={(trpc, qc) => [qc.prefetchQuery(trpc.payments.detail.queryOptions({ id })), qc.prefetchQuery(trpc.catalog.overview.queryOptions())]}>
      <PaymentDetail id={id} />
    </Prefetched>
  );
}
