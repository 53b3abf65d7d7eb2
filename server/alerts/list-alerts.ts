// The console's alerts: open ones first, then the newest, each with the sentence its email carried.
import { findSellerAlerts } from "./alerts.queries";
import { describeAlert } from "./notify-alerts";

export async function listSellerAlerts(sellerId: string) {
  const rows = await findSellerAlerts(sellerId, 50);
  return rows.map((a) => ({
    id: a.id,
    kind: a.kind,
    subject: a.subject,
    status: a.status as "open" | "resolved",
    message: describeAlert(a),
    openedAt: a.openedAt.toISOString(),
    resolvedAt: a.resolvedAt?.toISOString() ?? null,
    notifiedAt: a.notifiedAt?.toISOString() ?? null,
  }));
}
