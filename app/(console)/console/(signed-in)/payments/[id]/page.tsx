import { PaymentDetail } from "./_components/payment-detail";

// /console/payments/{id} - one payment: its states over time, the request it paid for, the on-chain transactions, refund
export default async function PaymentPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <PaymentDetail id={id} />;
}
