// The only file of wallet caps that touches the database. A day's spending moves only by one conditional statement
// (the upsert's `where` is the cap), so the check and the add are one step under any concurrency, on any instance.
import { db, sql } from "../db/client";

export type Caps = { perCallMicros: bigint | null; perDayMicros: bigint | null };

/** Every capped wallet of a seller (lower case), with its caps: small, read whole and cached. */
export async function findSellerWalletCaps(sellerId: string): Promise<Map<string, Caps>> {
  const { rows } = await sql<{ wallet: string; perCall: string | null; perDay: string | null }>(
    `select wallet, per_call_micros as "perCall", per_day_micros as "perDay" from wallet_caps
     where seller_id = $1 and (per_call_micros is not null or per_day_micros is not null)`,
    [sellerId],
  );
  const big = (v: string | null) => (v === null ? null : BigInt(v));
  return new Map(rows.map((r) => [r.wallet, { perCallMicros: big(r.perCall), perDayMicros: big(r.perDay) }]));
}

/** Add `amount` to the wallet's day if it stays within `cap`; the day's total after, or null (over the cap). */
export async function reserveDay(input: { sellerId: string; wallet: string; day: string; amount: bigint; cap: bigint }): Promise<bigint | null> {
  if (input.amount > input.cap) return null;
  const { rows } = await sql<{ spent: string }>(
    `insert into wallet_cap_days as d (seller_id, wallet, day, spent_micros) values ($1, $2, $3::date, $4)
     on conflict (seller_id, wallet, day) do update set spent_micros = d.spent_micros + excluded.spent_micros
       where d.spent_micros + excluded.spent_micros <= $5
     returning spent_micros as spent`,
    [input.sellerId, input.wallet, input.day, input.amount.toString(), input.cap.toString()],
    "wallet_cap_reserve",
  );
  return rows[0] ? BigInt(rows[0].spent) : null;
}

/** What the wallet spent on a day (for the refusal's `remainingUsd`). */
export async function findDaySpent(sellerId: string, wallet: string, day: string): Promise<bigint> {
  const { rows } = await sql<{ spent: string }>(`select spent_micros as spent from wallet_cap_days where seller_id = $1 and wallet = $2 and day = $3::date`, [
    sellerId,
    wallet,
    day,
  ]);
  return rows[0] ? BigInt(rows[0].spent) : 0n;
}

/** A reservation whose call was not charged: given back (never below zero). */
export async function releaseDay(input: { sellerId: string; wallet: string; day: string; amount: bigint }): Promise<void> {
  await sql(
    `update wallet_cap_days set spent_micros = spent_micros - $4 where seller_id = $1 and wallet = $2 and day = $3::date and spent_micros >= $4`,
    [input.sellerId, input.wallet, input.day, input.amount.toString()],
    "wallet_cap_release",
  );
}

export async function insertLinkNonce(input: { nonce: string; sellerId: string; humanId: string; expiresAt: Date }): Promise<void> {
  await db.walletLinkNonce.create({ data: input });
}

/**
 * Spend the nonce (this person's, at this seller, unexpired, unused) and link the wallet, one transaction. A wallet is
 * linked to one person per storefront: proving it again (a signature only its holder can make) moves it to the prover.
 */
export async function linkWalletRow(input: { nonce: string; sellerId: string; humanId: string; wallet: string }): Promise<boolean> {
  return db.$transaction(async (tx) => {
    const spent = await tx.walletLinkNonce.updateMany({
      where: { nonce: input.nonce, sellerId: input.sellerId, humanId: input.humanId, usedAt: null, expiresAt: { gt: new Date() } },
      data: { usedAt: new Date() },
    });
    if (spent.count !== 1) return false;
    const key = { sellerId_wallet: { sellerId: input.sellerId, wallet: input.wallet } };
    await tx.walletCap.upsert({
      where: key,
      create: { sellerId: input.sellerId, wallet: input.wallet, humanId: input.humanId },
      update: { humanId: input.humanId, perCallMicros: null, perDayMicros: null, linkedAt: new Date(), updatedAt: new Date() },
    });
    return true;
  });
}

/** Set a linked wallet's caps (this person's only). False: not theirs. */
export async function updateCaps(input: { sellerId: string; humanId: string; wallet: string } & Caps): Promise<boolean> {
  const moved = await db.walletCap.updateMany({
    where: { sellerId: input.sellerId, humanId: input.humanId, wallet: input.wallet },
    data: { perCallMicros: input.perCallMicros, perDayMicros: input.perDayMicros, updatedAt: new Date() },
  });
  return moved.count === 1;
}

export async function findPersonWallets(humanId: string, sellerId: string) {
  return db.walletCap.findMany({
    where: { humanId, sellerId },
    select: { wallet: true, perCallMicros: true, perDayMicros: true, linkedAt: true },
    orderBy: { linkedAt: "asc" },
  });
}
