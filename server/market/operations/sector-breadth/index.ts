// GET /api/v1/sentiment/sector-breadth: the percent of the 11 sector SPDR ETFs above their own moving average, computed
// here from daily closes (sector-closes-source.ts: the committed files offline, the shared daily bars live); archived daily.
import { MARKET_SOURCE } from "../../lib/envelope";
import { defineOperation } from "../operation";
import { contract } from "./contract";
import { computeSectorBreadth } from "./compute-sector-breadth";
import { getSectorBreadth } from "./get-sector-breadth";
import { embeddedSectorCloses, SECTOR_ETFS, sectorClosesSource } from "./sector-closes-source";

export const sectorBreadth = defineOperation({
  contract,
  service: "market-sentiment",
  meter: { key: "sector_breadth", title: "Sector breadth (computed)", priceMicros: 40_000n },
  source: MARKET_SOURCE,
  goal: "market breadth sentiment: share of sector ETFs above their 200-day moving average",
  example: () => ({ query: { window: "200", limit: "20" } }),
  coverage(kind) {
    const tickers = SECTOR_ETFS.map((m) => m.ticker).join(", ");
    if (kind === "live")
      return {
        summary: `Live: computed from Massive's split-adjusted daily closes of ${tickers}, for any day Massive has closes (XLC from 2018-06, XLRE from 2015-10).`,
      };
    const held = embeddedSectorCloses();
    const closes = [...held.byTicker.values()];
    const first = closes.map((c) => c[0]!.date).sort()[0];
    const last = closes
      .map((c) => c.at(-1)!.date)
      .sort()
      .at(-1);
    const firstReading = computeSectorBreadth(held.byTicker, 200).find((d) => d.percent_above !== null)?.date;
    return {
      summary:
        `Offline data: computed from the dividend-adjusted daily closes of ${tickers} held for ${first}..${last}; with the default ` +
        `200-day window the first reading is ${firstReading} (a shorter window starts earlier). A window outside these dates answers 403 not_included.`,
      entities: SECTOR_ETFS.map((m) => {
        const c = held.byTicker.get(m.ticker) ?? [];
        return { name: m.ticker, first_date: c[0]?.date, last_date: c.at(-1)?.date };
      }),
    };
  },
  run: ({ query }, ctx) => getSectorBreadth(query, ctx.providers.family(sectorClosesSource)),
  feed: {
    description: "The last 5 days of the 200-day sector breadth, as GET /api/v1/sentiment/sector-breadth returned them",
    entities: ["spdr_sectors_200d"],
    fetch: (_e, { providers }) => getSectorBreadth({ window: 200, sort: "desc", limit: 5 }, providers.family(sectorClosesSource)),
    summarize(p) {
      const r = p as { days: { date: string; percent_above: number | null }[] };
      return { last_date: r.days[0]?.date ?? null, percent_above: r.days[0]?.percent_above ?? null, count: r.days.length };
    },
  },
});
