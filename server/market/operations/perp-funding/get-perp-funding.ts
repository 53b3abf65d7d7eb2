// One funding history answer: the window (start/end/limit as the contract says), the rows, each rate annualised.
import type { z } from "zod";
import { invalidParameter } from "../../../errors";
import { addDays, dateToUtcMs } from "../../lib/dates";
import type { MarketProviders } from "../../providers/types";
import type { perpFundingQuery, perpFundingResponse } from "./contract";
import { fundingHistorySource, heldFundingHistory } from "./funding-history";

type Query = z.output<typeof perpFundingQuery>;
const HOUR = 3_600_000;

export async function getPerpFunding(
  symbol: string,
  q: Query,
  deps: { providers: MarketProviders; now: () => Date },
): Promise<z.output<typeof perpFundingResponse>> {
  if (q.start && q.end && q.start > q.end) throw invalidParameter("start", `start (${q.start}) must not be after end (${q.end})`);
  const source = deps.providers.family(fundingHistorySource);
  const live = deps.providers.kind === "live";
  const toMs = q.end ? dateToUtcMs(addDays(q.end, 1)) : live ? deps.now().getTime() : source.lastTime(symbol) + 1;
  const fromMs = q.start ? dateToUtcMs(q.start) : toMs - q.limit * HOUR;
  const held = await source.history(symbol, fromMs, toMs);
  const picked = q.start ? held.rows.slice(0, q.limit) : held.rows.slice(-q.limit);
  const cov = live ? null : heldFundingHistory().find((h) => h.coin === symbol);
  const rec = held.recorded;
  return {
    source: "hyperliquid",
    as_of: rec ? (rec.recorded_at ?? cov!.last) : deps.now().toISOString(),
    symbol,
    venue: "Hyperliquid",
    interval: "1h",
    recorded: rec !== null,
    provenance: rec ? `${rec.source}; ${rec.recorded_at_meaning}` : null,
    coverage: cov ? { first: cov.first, last: cov.last, rows: cov.rows } : null,
    count: picked.length,
    rows: picked.map((r) => ({
      time: new Date(r.time).toISOString(),
      funding_rate: r.fundingRate,
      funding_apr_percent: Math.round(r.fundingRate * 24 * 365 * 100 * 1e6) / 1e6,
      premium: r.premium,
    })),
    note: rec
      ? "A recorded reply of Hyperliquid's info API (not live data). funding_apr_percent is computed here."
      : "Live from Hyperliquid's info API. funding_apr_percent is computed here.",
  };
}
