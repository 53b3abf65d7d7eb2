// GET /api/v1/congress/trades: transactions members of Congress disclosed in periodic transaction reports. Its own
// source (senate-source.ts: the committed Senate rows offline, Senate Stock Watcher's aggregate file live); archived daily.
import { defineOperation } from "../operation";
import { SENATE_SOURCE, contract } from "./contract";
import { findCongressTrades } from "./find-congress-trades";
import { tradeOf } from "./senate-rows";
import { embeddedSenateRows, senateTradesSource } from "./senate-source";

export const congressTrades = defineOperation({
  contract,
  service: "congressional-trades",
  meter: { key: "congress_trades", title: "Congressional trades", priceMicros: 20_000n },
  source: SENATE_SOURCE,
  goal: "stock trades disclosed by US senators and members of Congress, by member or ticker",
  example: () => ({ query: { ticker: "AAPL", limit: "10" } }),
  coverage(kind) {
    if (kind === "live")
      return {
        summary:
          "Live from Senate Stock Watcher's aggregate file (senate-stock-watcher-data, transcribed from the Senate's eFD): Senate periodic " +
          "transaction reports as far as that dataset goes (its last update is of March 2021). The House is not held: chamber=house answers 403 not_included.",
      };
    const trades = embeddedSenateRows().map(tradeOf);
    const dates = (f: (t: (typeof trades)[number]) => string) => trades.map(f).sort();
    const [tx, disc] = [dates((t) => t.transaction_date), dates((t) => t.disclosure_date)];
    const members = new Set(trades.map((t) => t.member)).size;
    return {
      summary:
        `Offline data: ${trades.length} transactions from US Senate periodic transaction reports received ${disc[0]}..${disc.at(-1)} ` +
        `(transaction dates ${tx[0]}..${tx.at(-1)}, ${members} senators). The House is not held: chamber=house answers 403 not_included, ` +
        "as does a member with no report held or a window outside these dates.",
      entities: [{ name: "senate", first_date: tx[0], last_date: tx.at(-1) }],
    };
  },
  run: ({ query }, ctx) => findCongressTrades(query, ctx.providers.family(senateTradesSource)),
  feed: {
    description: "The 50 latest disclosed Senate transactions, as GET /api/v1/congress/trades returned them",
    entities: ["senate"],
    fetch: (_e, { providers }) =>
      findCongressTrades({ date_field: "disclosure", sort: "disclosure_date", order: "desc", limit: 50, offset: 0 }, providers.family(senateTradesSource)),
    summarize(p) {
      const r = p as { total: number; trades: { disclosure_date: string; member: string }[] };
      return {
        total: r.total,
        count: r.trades.length,
        latest_disclosure_date: r.trades[0]?.disclosure_date ?? null,
        latest_member: r.trades[0]?.member ?? null,
      };
    },
  },
});
