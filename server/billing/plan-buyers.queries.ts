// The Plans page's buyers of one plan: who bought its credit (the person who claimed the buying credential, else the
// credential itself), in one statement scoped to the seller. Read-only.
import { sql } from "../db/client";

export type PlanBuyerRow = {
  humanId: string | null;
  email: string | null;
  /** The buying credentials (one unless a person claimed several), oldest purchase first. */
  credentialIds: string[];
  purchases: number;
  topUps: number;
  /** Credit bought, net of refunds of the purchase payments. */
  boughtMicros: bigint;
  /** Credit not yet drawn on live (unexpired) grants. */
  leftMicros: bigint;
  lastPurchaseAt: Date;
};

/**
 * The buyers of a plan, largest amount bought first, at most `take` of them. A buyer is the human who claimed the
 * credential that bought (their credentials share the plan's credit), or the credential when nobody claimed it.
 */
export async function findPlanBuyers(sellerId: string, planId: string, take: number): Promise<PlanBuyerRow[]> {
  const { rows } = await sql<{
    human_id: string | null;
    email: string | null;
    credential_ids: string[];
    purchases: number;
    top_ups: number;
    bought: string;
    left_credit: string;
    last_purchase: string;
  }>(
    `with g as (
       select g.credential_id, c.human_id, g.amount_micros, g.created_at, p.operation_key,
         case when g.expires_at > now() at time zone 'UTC' then g.remaining_micros else 0 end as left_credit,
         coalesce((select sum(l.amount_micros) from ledger_entries l where l.payment_id = g.source_payment_id and l.kind = 'refund'), 0) as refunded
       from credit_grants g
         join agent_credentials c on c.id = g.credential_id
         join payments p on p.id = g.source_payment_id
       where g.seller_id = $1 and g.plan_id = $2
     ), b as (
       select coalesce(g.human_id, g.credential_id) as buyer, g.human_id,
         array_agg(distinct g.credential_id) as credential_ids,
         count(*) filter (where g.operation_key is distinct from 'plan_extend')::int as purchases,
         count(*) filter (where g.operation_key = 'plan_extend')::int as top_ups,
         sum(greatest(g.amount_micros - g.refunded, 0)) as bought,
         sum(g.left_credit) as left_credit,
         max(g.created_at) as last_purchase
       from g group by coalesce(g.human_id, g.credential_id), g.human_id
     )
     select b.human_id, h.email, b.credential_ids, b.purchases, b.top_ups, b.bought::text as bought, b.left_credit::text as left_credit,
       to_char(b.last_purchase, 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as last_purchase
     from b left join humans h on h.id = b.human_id
     order by b.bought desc, b.last_purchase desc, b.buyer
     limit $3`,
    [sellerId, planId, take],
  );
  return rows.map((r) => ({
    humanId: r.human_id,
    email: r.email,
    credentialIds: r.credential_ids,
    purchases: r.purchases,
    topUps: r.top_ups,
    boughtMicros: BigInt(r.bought),
    leftMicros: BigInt(r.left_credit),
    lastPurchaseAt: new Date(r.last_purchase),
  }));
}
