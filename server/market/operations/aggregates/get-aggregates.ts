import type { z } from "zod";
import type { aggregatesResponse } from "./contract";
import { MARKET_SOURCE, systemClock, type Clock } from "../../lib/envelope";
import { getMarketProviders } from "../../providers/get-market-providers";
import type { AggregatesParams, MarketProviders } from "../../providers/types";

export type AggregatesResponse = z.infer<typeof aggregatesResponse>;

export async function getAggregates(p: AggregatesParams, deps: { providers?: MarketProviders; now?: Clock } = {}): Promise<AggregatesResponse> {
  const providers = deps.providers ?? getMarketProviders();
  const { bars, adjusted, series } = await providers.aggregates.getAggregates(p);
  return {
    ticker: p.ticker,
    source: MARKET_SOURCE,
    as_of: (deps.now ?? systemClock)().toISOString(),
    ...(series ? { series } : {}),
    data: { bars, count: bars.length, adjusted },
  };
}
