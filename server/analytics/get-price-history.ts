// A meter's last 30 days by the price its calls paid: calls charged (per call or drawn on prepaid credit) and the
// revenue they brought at each unit price, so a price change can be weighed against what the current price did.
import { microsToUsd } from "../lib/money";
import { DAY_MS } from "./span";
import { findPriceHistory } from "./usage.queries";

export const PRICE_HISTORY_DAYS = 30;

export async function getPriceHistory(sellerId: string, operationKeys: string[], now: Date = new Date()) {
  const rows = await findPriceHistory(sellerId, operationKeys, { start: new Date(now.getTime() - PRICE_HISTORY_DAYS * DAY_MS), end: now });
  const prices = new Map<bigint, { calls: number; draws: number; chargedMicros: bigint; refundedMicros: bigint; drawnMicros: bigint }>();
  for (const r of rows) {
    const p = prices.get(r.unitMicros) ?? { calls: 0, draws: 0, chargedMicros: 0n, refundedMicros: 0n, drawnMicros: 0n };
    if (r.kind === "charge") {
      p.calls += r.entries;
      p.chargedMicros += r.micros;
    } else if (r.kind === "refund") p.refundedMicros += r.micros;
    else {
      p.draws += r.entries;
      p.drawnMicros += r.micros;
    }
    prices.set(r.unitMicros, p);
  }
  return [...prices.entries()]
    .sort((a, b) => (a[0] > b[0] ? -1 : a[0] < b[0] ? 1 : 0))
    .map(([unitMicros, p]) => ({
      unitMicros,
      priceUsd: microsToUsd(unitMicros),
      /** Calls charged per request at this price. */
      calls: p.calls,
      /** Calls drawn on prepaid credit at this price (the credit was bought earlier: usage, not new revenue). */
      draws: p.draws,
      revenueUsd: microsToUsd(p.chargedMicros - p.refundedMicros),
      drawnUsd: microsToUsd(p.drawnMicros),
    }));
}
