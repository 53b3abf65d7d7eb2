// GET /api/v1/economy/series: the economic series offered, searchable, free (a $0 meter: served without payment, as the
// gateway serves any operation priced at $0). Reads the shared economy catalog; no source of its own, no feed.
import { heldSeries } from "../../providers/economy-catalog";
import { defineOperation } from "../operation";
import { contract } from "./contract";
import { listEconomySeries } from "./list-economy-series";

export const economySeriesList = defineOperation({
  contract,
  service: "us-economy",
  meter: { key: "economy_series_list", title: "US economic series listing", priceMicros: 0n },
  source: "fred",
  goal: "list and search which economic series are offered, their coverage and vintages, free",
  example: () => ({ query: { q: "treasury yield" } }),
  coverage(kind) {
    const series = heldSeries();
    const ids = series.map((s) => s.id).join(", ");
    return {
      summary:
        kind === "live"
          ? `Free. Lists ${ids}: their dates held offline and what FRED (and BLS) serve live; any other FRED series id answers live too.`
          : `Free. Lists the ${series.length} series held offline (${ids}) with their dates and vintages.`,
      entities: series.map((s) => ({ name: s.id, first_date: s.first_date, last_date: s.last_date })),
    };
  },
  run: async ({ query }, ctx) => listEconomySeries(query, ctx.providers.kind),
});
