// GET /api/v1/forex/rates: reference exchange rates against the US dollar (Federal Reserve H.10 daily, G.5 monthly)
// in the direction asked, and cross rates computed from them. Its own source (forex-source.ts); archived daily.
import { addDays } from "../../lib/dates";
import { defineOperation } from "../operation";
import { contract, FOREX_SOURCE } from "./contract";
import { forexSource, H10_SERIES } from "./forex-source";
import { getForexRates, type ForexRatesResponse } from "./get-forex-rates";
import { forexCoverage } from "./forex-coverage";

/** The pairs archived each day, as the Fed quotes them (EUR and GBP in USD per unit, the others per USD). */
export const ARCHIVED_PAIRS: Record<string, { base: "USD" | "EUR" | "GBP"; quote: "USD" | "JPY" | "CNY" | "CAD" | "KRW" | "MXN" }> = {
  EUR: { base: "EUR", quote: "USD" },
  JPY: { base: "USD", quote: "JPY" },
  GBP: { base: "GBP", quote: "USD" },
  CNY: { base: "USD", quote: "CNY" },
  CAD: { base: "USD", quote: "CAD" },
  KRW: { base: "USD", quote: "KRW" },
  MXN: { base: "USD", quote: "MXN" },
};
const FEED_DAYS = 14;

export const forexRates = defineOperation({
  contract,
  service: "forex",
  meter: { key: "forex_rates", title: "Forex rates", priceMicros: 10_000n },
  source: FOREX_SOURCE,
  goal: "EUR/USD exchange rate daily, forex rates against the US dollar and cross rates like EUR/JPY",
  example: () => ({ query: { base: "EUR", quote: "USD", start: "2025-09-01", end: "2025-09-26" } }),
  coverage: (kind) => forexCoverage(kind, Object.keys(H10_SERIES)),
  run: ({ query }, ctx) => getForexRates(query, ctx.providers.family(forexSource), ctx.now()),
  feed: {
    description: `The last ${FEED_DAYS} calendar days of daily rates held, as GET /api/v1/forex/rates returned them, for each pair in the Fed's own direction`,
    entities: Object.keys(ARCHIVED_PAIRS),
    async fetch(currency, { providers, observedDate, now }) {
      const source = providers.family(forexSource);
      const held = source.dailyHeld(currency);
      const end = held && held !== "open" && held.last < observedDate ? held.last : observedDate;
      return getForexRates({ ...ARCHIVED_PAIRS[currency]!, frequency: "daily", start: addDays(end, -FEED_DAYS), end, limit: 100 }, source, now());
    },
    summarize(p) {
      const r = p as ForexRatesResponse;
      const last = r.rates.at(-1);
      return { pair: `${r.base}/${r.quote}`, count: r.count, last_date: last?.date ?? null, last_rate: last?.rate ?? null };
    },
  },
});
