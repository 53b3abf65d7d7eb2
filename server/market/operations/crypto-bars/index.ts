// GET /api/v1/crypto/{symbol}/bars: Coinbase daily bars by UTC day (its own source: coinbase-candles.ts, the shelf's
// files offline, Coinbase's public candles live). Its own operation rather than aggregates: the day is the UTC day, not
// a New York session; volume is in coins; the origin is Coinbase; partial and missing days are part of the answer.
// Archived daily: the last 14 days of each held product.
import { defineOperation } from "../operation";
import { embeddedCryptoBars, heldCryptoProducts } from "./coinbase-candles";
import { contract, cryptoBarsQuery } from "./contract";
import { getCryptoBars } from "./get-crypto-bars";

const ARCHIVE_DAYS = "14";
/** Archived products: the two held offline, also listed live. */
const ARCHIVED_PRODUCTS = ["BTC-USD", "ETH-USD"];

export const cryptoBars = defineOperation({
  contract,
  service: "crypto-markets",
  meter: { key: "crypto_bars", title: "Crypto daily bars", priceMicros: 10_000n },
  source: "coinbase",
  goal: "bitcoin and ethereum daily price history BTC-USD ETH-USD",
  example: () => ({ path: { symbol: "BTC-USD" }, query: { start: "2024-01-01", end: "2024-03-31" } }),
  coverage(kind) {
    if (kind === "live")
      return { summary: "Live daily bars of any Coinbase product (BTC-USD, ETH-USD, ...) from Coinbase's public candles; today's bar is flagged partial." };
    const held = heldCryptoProducts().map((p) => ({ p, h: embeddedCryptoBars.describe(p)! }));
    return {
      summary:
        `Offline data: Coinbase daily bars of ${held.map(({ p, h }) => `${p} ${h.coverage!.first}..${h.coverage!.last}`).join(" and ")} (UTC days, volume in coins); ` +
        `partial days flagged (${held.map(({ p, h }) => `${p}: ${h.partialDays.map((d) => d.date).join(", ") || "none"}`).join("; ")}), days absent from the source listed as missing_days. ` +
        "Another product answers 404 unknown_ticker; a window outside those days 403 not_included.",
      entities: held.map(({ p, h }) => ({ name: p, first_date: h.coverage!.first, last_date: h.coverage!.last })),
    };
  },
  run: ({ path, query }, ctx) => getCryptoBars(path.symbol, query, { providers: ctx.providers, now: ctx.now }),
  feed: {
    description: `The last ${ARCHIVE_DAYS} daily bars held, as GET /api/v1/crypto/{symbol}/bars returned them`,
    entities: ARCHIVED_PRODUCTS,
    fetch: (symbol, { providers, now }) => getCryptoBars(symbol, cryptoBarsQuery.parse({ limit: ARCHIVE_DAYS }), { providers, now }),
    summarize(p) {
      const r = p as { bars: { date: string; close: number }[]; partial_days: unknown[] };
      return { bars: r.bars.length, first: r.bars[0]?.date ?? null, last: r.bars.at(-1)?.date ?? null, last_close: r.bars.at(-1)?.close ?? null };
    },
  },
});
