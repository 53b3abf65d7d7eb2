// GET /api/v1/world-bank/indicators/{indicator}: World Development Indicators (GDP, GDP growth, inflation, population)
// by country and year. Its own source (world-bank-source.ts); archived daily for a fixed set of large economies.
import { defineOperation } from "../operation";
import { contract, WORLD_BANK_INDICATORS, WORLD_BANK_SOURCE } from "./contract";
import { getWorldBankIndicator, type WorldBankIndicatorsResponse } from "./get-world-bank-indicator";
import { embeddedAggregates, embeddedWorldBank, worldBankSource } from "./world-bank-source";

/** The economies (and the World) whose values each archived day keeps, per indicator. */
export const ARCHIVED_COUNTRIES = "USA,CHN,JPN,DEU,IND,GBR,FRA,BRA,WLD";

export const worldBankIndicators = defineOperation({
  contract,
  service: "global-macro",
  meter: { key: "world_bank_indicators", title: "World Bank indicators", priceMicros: 10_000n },
  source: WORLD_BANK_SOURCE,
  goal: "world bank GDP, GDP growth, inflation and population by country and year",
  example: () => ({ path: { indicator: "gdp" }, query: { countries: "USA,DEU", start_year: "2015", end_year: "2023" } }),
  coverage(kind) {
    if (kind === "live")
      return {
        summary:
          "Live from the World Bank API v2: the four indicators for any economy or aggregate it publishes, every year it has (1960 on); " +
          "a code it does not know answers 404 not_found.",
      };
    const source = embeddedWorldBank;
    const held = WORLD_BANK_INDICATORS.map((i) => ({ i, h: source.held(i.id)! }));
    return {
      summary:
        `Offline data (World Development Indicators, CC BY 4.0): ${held.map(({ i, h }) => `${i.id} (${i.alias}) ${h.first_year}..${h.last_year}, ${h.codes} codes`).join("; ")}. ` +
        `Codes: ISO alpha-3, alpha-2, and ${embeddedAggregates().length} aggregates (WLD, EUU, HIC...). An unknown code answers 404 not_found; years outside those held, or no value at all, 403 not_included.`,
      entities: held.map(({ i, h }) => ({ name: i.id, first_date: `${h.first_year}-01-01`, last_date: `${h.last_year}-12-31` })),
    };
  },
  run: ({ path, query }, ctx) => getWorldBankIndicator(path.indicator, query, ctx.providers.family(worldBankSource), ctx.now()),
  feed: {
    description: `The last ten years held of each indicator for ${ARCHIVED_COUNTRIES}, as GET /api/v1/world-bank/indicators/{indicator} returned them`,
    entities: WORLD_BANK_INDICATORS.map((i) => i.alias),
    fetch: (alias, { providers, now }) => getWorldBankIndicator(alias, { countries: ARCHIVED_COUNTRIES }, providers.family(worldBankSource), now()),
    summarize(p) {
      const r = p as WorldBankIndicatorsResponse;
      const world = r.observations.filter((o) => o.country_code === "WLD").at(-1);
      return {
        indicator: r.indicator.id,
        start_year: r.start_year,
        end_year: r.end_year,
        count: r.count,
        world_latest: world ? { year: world.year, value: world.value } : null,
      };
    },
  },
});
