// The shelf's recorded Hyperliquid replies (data/crypto/perps: third parties' recordings of the public info API, each
// file's moment and origin in its catalog.json), read through the data-file floor once, parsed as the live replies are
// (./hyperliquid.ts). Moments, not feeds: whoever serves them says they are recorded, and when.
import { cached, dataFile } from "./data-file";
import { readAssetContexts, readFundingHistory, type AssetContext, type FundingRow } from "./hyperliquid";

type Catalog = {
  contexts: { file: string; dex: string | null; recorded_at: string; source: string }[];
  funding_history: { file: string; coin: string; recorded_at: string | null; recorded_at_meaning: string; source: string }[];
};

const catalog = () => cached("hyperliquid-recordings", () => dataFile<Catalog>("crypto/perps/catalog.json"));

export type RecordedContexts = { dex: string | null; recorded_at: string; source: string; contexts: AssetContext[] };

/** Every recorded metaAndAssetCtxs reply, parsed, with its moment and origin. */
export function recordedContexts(): RecordedContexts[] {
  return cached("hyperliquid-recorded-contexts", () =>
    catalog().contexts.map((c) => ({
      dex: c.dex,
      recorded_at: c.recorded_at,
      source: c.source,
      contexts: readAssetContexts(c.dex, dataFile<unknown>(`crypto/perps/${c.file}`)),
    })),
  );
}

export type RecordedFunding = { coin: string; recorded_at: string | null; recorded_at_meaning: string; source: string; rows: FundingRow[] };

/** Every recorded fundingHistory reply (one coin each), parsed, oldest row first. */
export function recordedFundingHistory(): RecordedFunding[] {
  return cached("hyperliquid-recorded-funding", () =>
    catalog().funding_history.map((f) => ({
      coin: f.coin,
      recorded_at: f.recorded_at,
      recorded_at_meaning: f.recorded_at_meaning,
      source: f.source,
      rows: (readFundingHistory(dataFile<unknown>(`crypto/perps/${f.file}`)) ?? []).sort((a, b) => a.time - b.time),
    })),
  );
}
