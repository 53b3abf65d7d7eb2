// One crypto bars answer: the window the query asks for (start/end/limit, below), the source's bars in it, what is
// partial or missing in it, and the envelope. Windows:
//   start and end  the bars from start to end, the first `limit` of them (next_start continues)
//   start only     the bars of the `limit` days from start (next_start continues while days are held after them)
//   end only       the last `limit` bars up to end
//   neither        the last `limit` bars up to the latest day (offline: the last day held; live: today, UTC)
import type { z } from "zod";
import { AppError, invalidParameter } from "../../../errors";
import { addDays } from "../../lib/dates";
import type { MarketProviders } from "../../providers/types";
import { cryptoBarsSource, heldCryptoProducts } from "./coinbase-candles";
import type { cryptoBarsQuery, cryptoBarsResponse } from "./contract";

type Query = z.output<typeof cryptoBarsQuery>;
export type CryptoBarsResponse = z.output<typeof cryptoBarsResponse>;

/** BTC -> BTC-USD: a bare asset means its US dollar pair. */
export const productId = (symbol: string) => (symbol.includes("-") ? symbol : `${symbol}-USD`);

function daysBetween(from: string, to: string): string[] {
  const out: string[] = [];
  for (let d = from; d <= to; d = addDays(d, 1)) out.push(d);
  return out;
}

export async function getCryptoBars(rawSymbol: string, q: Query, deps: { providers: MarketProviders; now: () => Date }): Promise<CryptoBarsResponse> {
  const symbol = productId(rawSymbol);
  if (q.start && q.end && q.start > q.end) throw invalidParameter("start", `start (${q.start}) must not be after end (${q.end})`);
  const source = deps.providers.family(cryptoBarsSource);
  const held = source.describe(symbol);
  if (!held)
    throw new AppError("unknown_ticker", {
      detail: `${symbol} is not held offline (held: ${heldCryptoProducts().join(", ")}); MARKET_PROVIDER=live reads any Coinbase product`,
      extra: { symbol },
    });
  const last = source.lastDay(symbol);
  const end = q.end ?? (q.start ? (addDays(q.start, q.limit - 1) < last ? addDays(q.start, q.limit - 1) : last) : last);
  const start = q.start ?? addDays(end, -(q.limit - 1));
  const cov = held.coverage;
  if (cov && (end < cov.first || start > cov.last))
    throw new AppError("not_included", {
      reason: "timeframe_not_included",
      detail: `${symbol} bars for ${start}..${end} are not included: held ${cov.first}..${cov.last}`,
      extra: { symbol, coverage: { first_date: cov.first, last_date: cov.last } },
    });
  // Never ask beyond what can exist: the held span offline, today live.
  const from = cov && start < cov.first ? cov.first : start;
  const to = end > last ? last : end;
  const inWindow = from <= to ? await source.bars(symbol, from, to) : [];
  const bars = q.start ? inWindow.slice(0, q.limit) : inWindow.slice(-q.limit);
  const truncated = bars.length < inWindow.length;
  // With start: the rest of the window, or (no end asked) of the days held after the `limit` days read, continues there.
  const nextStart = !q.start ? null : truncated ? addDays(bars.at(-1)!.date, 1) : !q.end && to < last ? addDays(to, 1) : null;
  const span = bars.length ? daysBetween(bars[0]!.date, bars.at(-1)!.date) : [];
  const have = new Set(bars.map((b) => b.date));
  const answered = new Set(span);
  return {
    source: "coinbase",
    as_of: cov ? `${addDays(cov.last, 1)}T00:00:00.000Z` : deps.now().toISOString(),
    symbol,
    venue: "Coinbase Exchange",
    day: "UTC calendar day (00:00 to 24:00 UTC); crypto trades every day",
    units: held.units,
    provenance: held.provenance,
    coverage: cov ? { first_date: cov.first, last_date: cov.last } : null,
    count: bars.length,
    truncated: truncated || nextStart !== null,
    next_start: nextStart,
    bars,
    partial_days: held.partialDays.filter((p) => answered.has(p.date)),
    missing_days: span.filter((d) => !have.has(d)),
    note: "One venue's prices (Coinbase), not a cross-venue index. The close is the last trade of the UTC day; volume is in coins, not dollars.",
  };
}
