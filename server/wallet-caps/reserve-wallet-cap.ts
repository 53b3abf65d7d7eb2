// Wallet caps on the paid path: an x402 or MPP payment from a wallet its person capped at this storefront is refused
// past the cap, whatever credential (or none) sends it, before any rail accepts it. Per call: the price against the cap.
// Per UTC day: the price is reserved in the wallet's day row by one conditional statement (wallet-caps.queries.ts), so
// concurrent calls on any number of instances never pass it; a call that is not charged gives it back.
// The seller's capped wallets are cached per instance and forgotten on `w:<seller>` (server/controls keeps the LISTEN);
// a seller with none costs no signature recovery and no statement.
import { AppError } from "../errors";
import { microsToUsd } from "../lib/money";
import type { PaidCall } from "../payments/paid-call";
import type { Rail } from "../payments/rails/rail";
import { findDaySpent, findSellerWalletCaps, releaseDay, reserveDay, type Caps } from "./wallet-caps.queries";

const TTL_MS = 30_000;
type Entry = { caps: Map<string, Caps>; at: number };
const cache: Map<string, Entry> = ((globalThis as unknown as { __walletCaps?: Map<string, Entry> }).__walletCaps ??= new Map());
let generation = 0;

/** Forget a seller's capped wallets (null: every seller's), when PostgreSQL says they changed. */
export function forgetWalletCaps(sellerId: string | null): void {
  generation++;
  if (sellerId === null) cache.clear();
  else cache.delete(sellerId);
}

async function sellerCaps(sellerId: string, cacheable: boolean): Promise<Map<string, Caps>> {
  const hit = cacheable ? cache.get(sellerId) : undefined;
  if (hit && Date.now() - hit.at < TTL_MS) return hit.caps;
  const g = generation;
  const caps = await findSellerWalletCaps(sellerId);
  if (cacheable && g === generation) cache.set(sellerId, { caps, at: Date.now() });
  return caps;
}

export type CapAdmission = { type: "admitted"; release(): Promise<void> } | { type: "refused"; error: AppError };
const NONE: CapAdmission = { type: "admitted", release: async () => {} };

function capError(cap: "per_call" | "per_day", limit: bigint, remaining: bigint, resetsAt: string | null): AppError {
  return new AppError("wallet_cap_exceeded", {
    reason: cap,
    detail: `the paying wallet's person capped its spending here at $${microsToUsd(limit)} ${cap === "per_call" ? "a call" : "a day (UTC)"}; nothing was charged`,
    extra: { limitUsd: microsToUsd(limit), remainingUsd: microsToUsd(remaining < 0n ? 0n : remaining), resetsAt },
  });
}

export async function reserveWalletCap(call: PaidCall, rail: Rail, proof: unknown, opts: { cacheable: boolean }): Promise<CapAdmission> {
  if (rail.payerKind !== "wallet" || !rail.payer) return NONE;
  const caps = await sellerCaps(call.sellerId, opts.cacheable);
  if (caps.size === 0) return NONE;
  const wallet = (await rail.payer(proof))?.toLowerCase();
  const cap = wallet ? caps.get(wallet) : undefined;
  if (!wallet || !cap) return NONE;
  if (cap.perCallMicros !== null && call.amountMicros > cap.perCallMicros)
    return { type: "refused", error: capError("per_call", cap.perCallMicros, cap.perCallMicros, null) };
  if (cap.perDayMicros === null) return NONE;
  const now = new Date();
  const day = now.toISOString().slice(0, 10);
  const key = { sellerId: call.sellerId, wallet, day, amount: call.amountMicros };
  if ((await reserveDay({ ...key, cap: cap.perDayMicros })) === null) {
    const resetsAt = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1)).toISOString();
    const spent = await findDaySpent(call.sellerId, wallet, day);
    return { type: "refused", error: capError("per_day", cap.perDayMicros, cap.perDayMicros - spent, resetsAt) };
  }
  return { type: "admitted", release: () => releaseDay(key) };
}
