import { PlansAndMeters } from "./_components/plans-and-meters";

// /console/plans - the catalog's plans, meters and the operations they price (read-only here)
export default function PlansPage() {
  return <PlansAndMeters />;
}
