// This operation's own source, in both kinds (a ProviderFamily, built by the shared provider selection):
//   embedded  data/economy/ (FRED's files, their vintages), through the shared economy catalog
//   live      FRED's API (FRED_API_KEY, FRED_BASE_URL) and, for the series BLS publishes, BLS's (BLS_API_KEY, BLS_BASE_URL)
import type { ProviderFamily } from "../../providers/types";
import { embeddedSeries } from "./embedded-series";
import { liveSeries } from "./live-series";
import type { EconomySeriesSource } from "./series-answer";

export const economySeriesSource: ProviderFamily<EconomySeriesSource> = {
  name: "economy-series",
  embedded: () => embeddedSeries,
  live: (cfg) => liveSeries(cfg),
};
