// Rate limits per payer wallet (at each seller) and per seller, shared across instances through PostgreSQL
// (fixed one-minute windows). Over the limit: 429 rate_limit_exceeded with `retry_after` seconds and a
// Retry-After header.
import { env } from "../env";
import { AppError } from "../errors";
import { hitWindows } from "./rate-limit.queries";

const WINDOW_MS = 60_000;

/**
 * `payer` is asked for only when the per-payer limit is on: finding the paying wallet costs a signature
 * recovery (about 2 ms) that a disabled limit should not pay for on the paid path.
 */
export async function enforceRateLimits(opts: { sellerId: string; payer?: () => Promise<string | null>; now?: number }): Promise<void> {
  const e = env();
  const now = opts.now ?? Date.now();
  if (e.RATE_LIMIT_DISABLED) return;
  const limits: { key: string; limit: number; scope: string }[] = [];
  if (e.RATE_LIMIT_SELLER_PER_MINUTE > 0) limits.push({ key: `seller:${opts.sellerId}`, limit: e.RATE_LIMIT_SELLER_PER_MINUTE, scope: "seller" });
  const payer = opts.payer && e.RATE_LIMIT_PAYER_PER_MINUTE > 0 ? await opts.payer() : null;
  if (payer) limits.push({ key: `payer:${opts.sellerId}:${payer.toLowerCase()}`, limit: e.RATE_LIMIT_PAYER_PER_MINUTE, scope: "payer" });
  if (!limits.length) return;
  const windowStart = Math.floor(now / WINDOW_MS) * WINDOW_MS;
  const counts = await hitWindows(
    limits.map((l) => l.key),
    new Date(windowStart),
  );
  const over = limits.find((l) => (counts.get(l.key) ?? 0) > l.limit);
  if (!over) return;
  const retryAfter = Math.max(1, Math.ceil((windowStart + WINDOW_MS - now) / 1000));
  throw new AppError("rate_limit_exceeded", {
    detail: `more than ${over.limit} requests per minute for this ${over.scope}; wait retry_after seconds`,
    extra: { retry_after: retryAfter, scope: over.scope, limit: over.limit },
    headers: { "retry-after": String(retryAfter) },
  });
}
