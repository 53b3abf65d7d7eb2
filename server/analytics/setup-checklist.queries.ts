// The facts the overview's setup checklist reads about a seller, in one statement: its payout wallet, the contact
// address payers see, and whether any webhook endpoint is enabled. Scoped by the seller id from the session.
import { sql } from "../db/client";

export type SetupFacts = { payTo: string | null; contactEmail: string | null; enabledWebhooks: number };

export async function findSetupFacts(sellerId: string): Promise<SetupFacts> {
  const { rows } = await sql<{ pay_to: string | null; contact_email: string | null; webhooks: number }>(
    `select s.pay_to_address as pay_to, st.contact_email,
       (select count(*) from webhook_endpoints e where e.seller_id = s.id and e.status = 'enabled')::int as webhooks
     from sellers s left join seller_settings st on st.seller_id = s.id where s.id = $1`,
    [sellerId],
  );
  const r = rows[0];
  return { payTo: r?.pay_to ?? null, contactEmail: r?.contact_email?.trim() || null, enabledWebhooks: r?.webhooks ?? 0 };
}
