import type { z } from "zod";
import { getMarketProviders } from "../../providers/get-market-providers";
import type { MarketProviders } from "../../providers/types";
import { TREASURY_SOURCE, type avgInterestRatesResponse } from "./contract";
import { treasuryRates } from "./treasury-rates";

export type AvgInterestRatesResponse = z.infer<typeof avgInterestRatesResponse>;

export const AVG_INTEREST_RATES_SERIES = "avg_interest_rates";

export async function getAvgInterestRates(deps: { providers?: MarketProviders } = {}): Promise<AvgInterestRatesResponse> {
  const providers = deps.providers ?? getMarketProviders();
  const { record_date, as_of, rows } = await providers.family(treasuryRates).getLatestAvgInterestRates();
  const rates = rows.map((r) => {
    const n = r.avg_interest_rate_amt === null || r.avg_interest_rate_amt === "" ? null : Number(r.avg_interest_rate_amt);
    return { security_type: r.security_type_desc, security: r.security_desc, avg_interest_rate: n !== null && Number.isFinite(n) ? n : null };
  });
  return { source: TREASURY_SOURCE, as_of, series: AVG_INTEREST_RATES_SERIES, unit: "percent", record_date, count: rates.length, rates };
}
