import { Refunds } from "./_components/refunds";

// /console/refunds - the refunds recorded, and how to record one
export default function RefundsPage() {
  return <Refunds />;
}
