// This operation's own source, in both kinds: one perp's hourly funding history.
//   embedded  the recorded fundingHistory replies of data/crypto/perps (xyz:TSLA and xyz:NVDA only), through
//             server/market/providers/hyperliquid-recordings.ts; a perp whose contexts are recorded but whose history
//             is not answers 403 not_included, an unknown one 404
//   live      Hyperliquid's info API {type: fundingHistory, coin, startTime, endTime} (up to 500 rows from startTime)
import { AppError } from "../../../errors";
import { hyperliquidInfo, readFundingHistory, type FundingRow } from "../../providers/hyperliquid";
import { recordedContexts, recordedFundingHistory } from "../../providers/hyperliquid-recordings";
import type { ProviderFamily } from "../../providers/types";

export type FundingHeld = { rows: FundingRow[]; recorded: { recorded_at: string | null; recorded_at_meaning: string; source: string } | null };

export interface FundingHistorySource {
  /** Rows with fromMs <= time < toMs, oldest first. */
  history(symbol: string, fromMs: number, toMs: number): Promise<FundingHeld>;
  /** The last time a row can exist at: the last held (embedded) or now (live). */
  lastTime(symbol: string): number;
}

/** What the recordings hold, per coin: the hours and row counts (the coverage's text). */
export function heldFundingHistory() {
  return recordedFundingHistory().map((f) => ({
    coin: f.coin,
    first: new Date(f.rows[0]!.time).toISOString(),
    last: new Date(f.rows.at(-1)!.time).toISOString(),
    rows: f.rows.length,
  }));
}

const heldText = () =>
  heldFundingHistory()
    .map((h) => `${h.coin} ${h.first.slice(0, 16)}Z..${h.last.slice(0, 16)}Z (${h.rows} hourly rows)`)
    .join(" and ");

export const embeddedFundingHistory: FundingHistorySource = {
  async history(symbol, fromMs, toMs) {
    const rec = recordedFundingHistory().find((f) => f.coin === symbol);
    if (!rec) {
      const known = recordedContexts().some((r) => r.contexts.some((c) => c.symbol === symbol));
      if (known)
        throw new AppError("not_included", {
          reason: "funding_history_not_included",
          detail: `no funding history of ${symbol} is held offline (its current funding is: GET /api/v1/perps); held: ${heldText()}`,
          extra: { symbol, held: heldFundingHistory() },
        });
      throw new AppError("unknown_ticker", { detail: `${symbol} is not a perp held offline; funding history held: ${heldText()}`, extra: { symbol } });
    }
    return {
      rows: rec.rows.filter((r) => r.time >= fromMs && r.time < toMs),
      recorded: { recorded_at: rec.recorded_at, recorded_at_meaning: rec.recorded_at_meaning, source: rec.source },
    };
  },
  lastTime: (symbol) =>
    recordedFundingHistory()
      .find((f) => f.coin === symbol)
      ?.rows.at(-1)?.time ?? 0,
};

export const fundingHistorySource: ProviderFamily<FundingHistorySource> = {
  name: "hyperliquid-funding-history",
  embedded: () => embeddedFundingHistory,
  live: (cfg) => ({
    // One call: Hyperliquid answers up to 500 rows from startTime, and an answer holds at most 500 (the contract's limit).
    async history(symbol, fromMs, toMs) {
      const doc = await hyperliquidInfo(cfg)({ type: "fundingHistory", coin: symbol, startTime: fromMs, endTime: toMs - 1 }, "fundingHistory");
      const rows = readFundingHistory(doc);
      if (rows === null) throw new AppError("unknown_ticker", { detail: `${symbol} is not a perp Hyperliquid lists`, extra: { symbol } });
      return { rows: rows.filter((r) => r.time >= fromMs && r.time < toMs).sort((a, b) => a.time - b.time), recorded: null };
    },
    lastTime: () => Date.now(),
  }),
};
