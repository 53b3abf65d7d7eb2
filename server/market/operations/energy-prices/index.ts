// GET /api/v1/energy/{commodity}: EIA prices of WTI and Brent crude, Henry Hub natural gas and US retail gasoline.
// Its own source (energy-source.ts); archived daily: the latest prices of each commodity.
import { addDays } from "../../lib/dates";
import { defineOperation } from "../operation";
import { COMMODITIES, contract, ENERGY_SOURCE, type Commodity } from "./contract";
import { embeddedEnergy, energySource } from "./energy-source";
import { getEnergyPrices, type EnergyPricesResponse } from "./get-energy-prices";

/** Archived each day: the last prices of each (natural-gas is the same series as henry-hub). */
export const ARCHIVED_COMMODITIES: Commodity[] = ["wti", "brent", "henry-hub", "gasoline"];
const FEED_DAYS = 14;

export const energyPrices = defineOperation({
  contract,
  service: "energy-commodities",
  meter: { key: "energy_prices", title: "Energy prices", priceMicros: 10_000n },
  source: ENERGY_SOURCE,
  goal: "WTI crude oil price daily, Brent, Henry Hub natural gas and gasoline prices",
  example: () => ({ path: { commodity: "wti" }, query: { start: "2020-04-14", end: "2020-04-24" } }),
  coverage(kind) {
    if (kind === "live")
      return {
        summary:
          "Live from the EIA API v2: WTI, Brent and Henry Hub spot prices daily, weekly, monthly and annual, US regular gasoline weekly, monthly and " +
          "annual, every date EIA publishes. Daily gasoline answers 403 not_included (EIA publishes none).",
      };
    const held = ARCHIVED_COMMODITIES.map((name) => {
      const c = COMMODITIES[name];
      const f = c.published.find((x) => embeddedEnergy.held(c.series, x))!;
      return { name, f, h: embeddedEnergy.held(c.series, f) as { first: string; last: string; rows: number } };
    });
    return {
      summary:
        `Offline data (EIA): ${held.map(({ name, f, h }) => `${name} ${f} ${h.first}..${h.last} (${h.rows.toLocaleString("en-US")} prices)`).join(", ")}; natural-gas is henry-hub. ` +
        "Other frequencies, and windows outside those dates, answer 403 not_included (EIA's weekly and monthly averages are live only; nothing is averaged here).",
      entities: held.map(({ name, f, h }) => ({ name: `${name} ${f}`, first_date: h.first, last_date: h.last })),
    };
  },
  run: ({ path, query }, ctx) => getEnergyPrices(path.commodity, query, ctx.providers.family(energySource), ctx.now()),
  feed: {
    description: `The prices of the last ${FEED_DAYS} calendar days held (five weeks for gasoline), as GET /api/v1/energy/{commodity} returned them`,
    entities: ARCHIVED_COMMODITIES,
    async fetch(commodity, { providers, observedDate, now }) {
      const source = providers.family(energySource);
      const c = COMMODITIES[commodity as Commodity];
      const frequency = c.published[0];
      const held = source.held(c.series, frequency);
      const end = held && held !== "open" && held.last < observedDate ? held.last : observedDate;
      const days = frequency === "weekly" ? 35 : FEED_DAYS;
      return getEnergyPrices(commodity as Commodity, { start: addDays(end, -days), end, frequency, limit: 100 }, source, now());
    },
    summarize(p) {
      const r = p as EnergyPricesResponse;
      const last = r.prices.at(-1);
      return { commodity: r.commodity, series: r.series.id, count: r.count, last_date: last?.date ?? null, last_value: last?.value ?? null };
    },
  },
});
