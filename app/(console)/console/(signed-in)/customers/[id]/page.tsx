import { Prefetched } from "../../../_components/prefetch";
import { CustomerDetail } from "./_components/customer-detail";

// /console/customers/{id} - one customer (a wallet, a person by email, an agent credential): spend, payments, refunds, plans, credit left
export default async function CustomerPage({ params }: { params: Promise<{ id: string }> }) {
  const raw = (await params).id;
  // Next.js hands the segment over still percent-encoded (an email's @ is %40); a malformed escape is kept as typed.
  let id = raw;
  try {
    id = decodeURIComponent(raw);
  } catch {}
  return (
    <Prefetched load={(trpc, qc) => [qc.prefetchQuery(trpc.customers.customer.queryOptions({ id })), qc.prefetchQuery(trpc.catalog.overview.queryOptions())]}>
      <CustomerDetail id={id} />
    </Prefetched>
  );
}
