// GET /api/v1/basis: every US stock that also trades as a 24/7 perpetual, the perp's mark against the stock's price.
// Its own source (perps.ts: the recorded snapshot offline, Hyperliquid and the shared bars live); archived daily.
import { MARKET_SOURCE } from "../../lib/envelope";
import { defineOperation } from "../operation";
import { contract } from "./contract";
import { getBasis } from "./get-basis";
import { embeddedPerpsCoverage } from "./perps";

export const basis = defineOperation({
  contract,
  service: "screeners-scores-research",
  meter: { key: "basis", title: "Equity/perp basis", priceMicros: 50_000n },
  source: MARKET_SOURCE,
  goal: "equity vs perpetual basis screener for US stocks, funding and premium",
  example: () => ({ query: { limit: "10" } }),
  coverage(kind) {
    if (kind === "live")
      return {
        summary:
          "Live: every US stock perpetual on Hyperliquid's HIP-3 dexes now, against the last daily closes from Massive; a stock without a close is listed as not comparable.",
      };
    const held = embeddedPerpsCoverage();
    if (!held)
      return { summary: "Offline, this storefront holds no recorded perpetual snapshot: the operation answers 403 not_included until one is recorded." };
    return {
      summary: `Offline data: one recorded moment, ${held.as_of}, of ${held.tickers.length} US stock perpetuals (${held.tickers.join(", ")}) against their closes; the answer says it is a recording.`,
      entities: held.tickers.map((t) => ({ name: t, first_date: held.as_of.slice(0, 10), last_date: held.as_of.slice(0, 10) })),
    };
  },
  run: ({ query }, ctx) => getBasis(query, { providers: ctx.providers, now: ctx.now }),
  feed: {
    description: "Equity vs 24/7 perpetual basis of every US stock perp, as GET /api/v1/basis returned it",
    entities: ["us_equity_perps"],
    fetch: (_e, { providers, now }) => getBasis({ limit: 500, min_basis: 0 }, { providers, now }),
    summarize(p) {
      const b = p as { count: number; us_market_open: boolean; rows: { ticker: string; comparable: boolean; basis_percent: number | null }[] };
      const widest = b.rows.find((x) => x.comparable);
      return {
        count: b.count,
        comparable: b.rows.filter((x) => x.comparable).length,
        us_market_open: b.us_market_open,
        widest_ticker: widest?.ticker ?? null,
        widest_basis_percent: widest?.basis_percent ?? null,
      };
    },
  },
});
