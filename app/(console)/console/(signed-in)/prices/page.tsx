import { Prices } from "./_components/prices";

// /console/prices - per-request prices of the meters, editable (live at once in discovery and the gateway)
export default function PricesPage() {
  return <Prices />;
}
