import type { MarketProviders } from "../../providers/types";
import type { economySeriesQuery } from "./contract";
import type { SeriesAnswer } from "./series-answer";
import { economySeriesSource } from "./series-source";
import type { z } from "zod";

type Query = z.output<typeof economySeriesQuery>;

/** One series' observations in the window asked, from the source MARKET_PROVIDER selects. Ids are FRED's, upper-case. */
export function getEconomySeries(seriesId: string, q: Query, providers: MarketProviders): Promise<SeriesAnswer> {
  return providers.family(economySeriesSource).series({ id: seriesId.toUpperCase(), start: q.start, end: q.end, asOf: q.as_of, limit: q.limit, sort: q.sort });
}
