import { Suspense } from "react";
import { AuditLog } from "./_components/audit-log";

// /console/audit - every audited change (prices, refunds, identity providers, settings): who, when, before and after
export default function AuditPage() {
  return (
    <Suspense>
      <AuditLog />
    </Suspense>
  );
}
