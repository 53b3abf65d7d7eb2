// The person's account at one storefront (app/account): the credentials they claimed, what each spent by UTC day and
// month across rails (the confirmed budget holds: every charged call of a claimed credential), the plan credit left,
// and the receipts of the paid calls.
import "server-only";
import { sql } from "../db/client";

export type AccountCredential = { id: string; kind: string; claimedAt: Date | null; revokedAt: Date | null };
export type SpendRow = { credentialId: string; period: Date; rail: string; calls: number; micros: bigint };
export type CreditRow = { credentialId: string; planName: string; remainingMicros: bigint; amountMicros: bigint; expiresAt: Date };
export type ReceiptRow = {
  paymentId: string;
  credentialId: string;
  rail: string;
  operationKey: string;
  path: string;
  query: string;
  micros: bigint;
  at: Date;
  hasReceipt: boolean;
};

export async function findClaimedCredentials(sellerId: string, humanId: string): Promise<AccountCredential[]> {
  const { rows } = await sql<{ id: string; kind: string; claimed_at: Date | null; revoked_at: Date | null }>(
    `select id, kind, claimed_at, revoked_at from agent_credentials where human_id = $1 and seller_id = $2 and status = 'claimed' order by claimed_at, id`,
    [humanId, sellerId],
  );
  return rows.map((r) => ({ id: r.id, kind: r.kind, claimedAt: r.claimed_at, revokedAt: r.revoked_at }));
}

/** Charged spending per credential and rail, per UTC `day` or `month` window, from `since` on. */
export async function findSpending(sellerId: string, humanId: string, by: "day" | "month", since: Date): Promise<SpendRow[]> {
  const column = by === "day" ? "day" : "month";
  const { rows } = await sql<{ credential_id: string; period: Date; rail: string; calls: string; micros: string }>(
    `select credential_id, ${column} as period, coalesce(rail, '') as rail, count(*)::text as calls, sum(charged_micros)::text as micros
       from budget_holds
      where human_id = $1 and seller_id = $2 and state = 'confirmed' and ${column} >= $3::date
      group by credential_id, ${column}, rail
      order by ${column} desc, credential_id, rail`,
    [humanId, sellerId, since.toISOString().slice(0, 10)],
  );
  return rows.map((r) => ({ credentialId: r.credential_id, period: r.period, rail: r.rail, calls: Number(r.calls), micros: BigInt(r.micros) }));
}

/** Live plan credit of the person's credentials here (a grant serves every credential the person claimed). */
export async function findCredit(sellerId: string, humanId: string): Promise<CreditRow[]> {
  const { rows } = await sql<{ credential_id: string; name: string; remaining: string; amount: string; expires_at: Date }>(
    `select g.credential_id, p.name, g.remaining_micros::text as remaining, g.amount_micros::text as amount, g.expires_at
       from credit_grants g join agent_credentials c on c.id = g.credential_id join plans p on p.id = g.plan_id
      where c.human_id = $1 and g.seller_id = $2 and g.expires_at > now()
      order by g.expires_at`,
    [humanId, sellerId],
  );
  return rows.map((r) => ({
    credentialId: r.credential_id,
    planName: r.name,
    remainingMicros: BigInt(r.remaining),
    amountMicros: BigInt(r.amount),
    expiresAt: r.expires_at,
  }));
}

/** The person's charged calls here, newest first (a page of them, or all since `since` for the CSV). */
export async function findPaidCalls(sellerId: string, humanId: string, opts: { limit: number; since?: Date }): Promise<ReceiptRow[]> {
  const { rows } = await sql<{
    payment_id: string;
    credential_id: string;
    rail: string;
    operation_key: string;
    path: string;
    query: string;
    micros: string;
    at: Date;
    has_receipt: boolean;
  }>(
    `select h.payment_id, h.credential_id, coalesce(h.rail, '') as rail, h.operation_key, p.path, p.query, h.charged_micros::text as micros,
            h.settled_at as at, p.receipt is not null as has_receipt
       from budget_holds h join payments p on p.id = h.payment_id
      where h.human_id = $1 and h.seller_id = $2 and h.state = 'confirmed' and h.created_at >= $3
      order by h.created_at desc
      limit $4`,
    [humanId, sellerId, opts.since ?? new Date(0), opts.limit],
  );
  return rows.map((r) => ({
    paymentId: r.payment_id,
    credentialId: r.credential_id,
    rail: r.rail,
    operationKey: r.operation_key,
    path: r.path,
    query: r.query,
    micros: BigInt(r.micros),
    at: r.at,
    hasReceipt: r.has_receipt,
  }));
}

/** True when the person with this email claimed a credential at this seller (the account page exists for them). */
export async function hasAccountHere(sellerId: string, email: string): Promise<boolean> {
  const { rows } = await sql(
    `select 1 from humans h join agent_credentials c on c.human_id = h.id where h.email = $1 and c.seller_id = $2 and c.status = 'claimed' limit 1`,
    [email, sellerId],
  );
  return rows.length > 0;
}
