// GET /api/v1/perps/{symbol}/funding: one Hyperliquid perp's hourly funding history. Its own source:
// funding-history.ts (two recorded replies offline, the info API live). Archived daily for the perps held offline.
import { defineOperation } from "../operation";
import { contract, perpFundingQuery } from "./contract";
import { heldFundingHistory } from "./funding-history";
import { getPerpFunding } from "./get-perp-funding";

/** The perps whose history is archived: the two held offline (also listed live). */
const ARCHIVED = ["xyz:TSLA", "xyz:NVDA"];

export const perpFunding = defineOperation({
  contract,
  service: "crypto-markets",
  meter: { key: "perp_funding", title: "Perpetual funding history", priceMicros: 20_000n },
  source: "hyperliquid",
  goal: "hourly funding rate history of a perpetual on Hyperliquid",
  example: () => ({ path: { symbol: "xyz:TSLA" }, query: { start: "2026-09-26", end: "2026-09-27" } }),
  coverage(kind) {
    if (kind === "live")
      return { summary: "Live hourly funding history of any Hyperliquid perp (BTC, ETH, xyz:TSLA, ...) from its info API (up to 500 hours an answer)." };
    const held = heldFundingHistory();
    return {
      summary:
        `Offline data: recorded funding history only for ${held.map((h) => `${h.coin} ${h.first.slice(0, 16)}Z..${h.last.slice(0, 16)}Z (${h.rows} hourly rows)`).join(" and ")}. ` +
        "Any other perp, BTC and ETH included, answers 403 not_included (reason funding_history_not_included) when its current context is recorded (GET /api/v1/perps), 404 unknown_ticker otherwise.",
      entities: held.map((h) => ({ name: h.coin, first_date: h.first.slice(0, 10), last_date: h.last.slice(0, 10) })),
    };
  },
  run: ({ path, query }, ctx) => getPerpFunding(path.symbol, query, { providers: ctx.providers, now: ctx.now }),
  feed: {
    description: "The last 24 hourly funding rates, as GET /api/v1/perps/{symbol}/funding returned them",
    entities: ARCHIVED,
    fetch: (symbol, { providers, now }) => getPerpFunding(symbol, perpFundingQuery.parse({ limit: "24" }), { providers, now }),
    summarize(p) {
      const r = p as { count: number; rows: { time: string; funding_apr_percent: number }[] };
      const last = r.rows.at(-1);
      return { rows: r.count, last_time: last?.time ?? null, last_funding_apr_percent: last?.funding_apr_percent ?? null };
    },
  },
});
