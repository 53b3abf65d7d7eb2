// Sector breadth: on each trading day, the percent of the sector ETFs closing above their own simple moving average of
// the last `window` closes. The method is written into every answer (`method`); this is the only place it is computed.
import type { DailyClose } from "./sector-closes-source";

export type BreadthDay = { date: string; percent_above: number | null; above: string[]; members_with_average: number };

export function breadthMethod(window: number, basis: string): string {
  return (
    `For each trading day d and each member ETF: the simple moving average of the member's last ${window} closes up to and ` +
    `including d (its own trading days, no gaps filled); the member is above when its close on d is strictly greater than that ` +
    `average. percent_above = 100 x (members above) / (members with an average on d). A member with fewer than ${window} closes ` +
    `up to d has no average that day and is left out of both counts (members_with_average says how many counted); a day on ` +
    `which no member has an average has percent_above null. ${basis}`
  );
}

/** Per member, its SMA on each of its days that has `window` closes up to it (a running sum over its own series). */
export function smaByDate(closes: DailyClose[], window: number): Map<string, number> {
  const out = new Map<string, number>();
  let sum = 0;
  closes.forEach((c, i) => {
    sum += c.close;
    if (i >= window) sum -= closes[i - window]!.close;
    if (i >= window - 1) out.set(c.date, sum / window);
  });
  return out;
}

/** Every day any member traded, oldest first, with its breadth reading. */
export function computeSectorBreadth(byTicker: Map<string, DailyClose[]>, window: number): BreadthDay[] {
  const members = [...byTicker.entries()].map(([ticker, closes]) => ({
    ticker,
    close: new Map(closes.map((c) => [c.date, c.close])),
    sma: smaByDate(closes, window),
  }));
  const dates = [...new Set([...byTicker.values()].flatMap((cs) => cs.map((c) => c.date)))].sort();
  return dates.map((date) => {
    let counted = 0;
    const above: string[] = [];
    for (const m of members) {
      const sma = m.sma.get(date);
      const close = m.close.get(date);
      if (sma === undefined || close === undefined) continue;
      counted++;
      if (close > sma) above.push(m.ticker);
    }
    return { date, percent_above: counted ? Math.round((10_000 * above.length) / counted) / 100 : null, above, members_with_average: counted };
  });
}
