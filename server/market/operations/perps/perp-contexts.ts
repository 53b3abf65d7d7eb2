// This operation's own source, in both kinds: perpetuals' current contexts (mark, oracle, funding, open interest).
//   embedded  the recorded metaAndAssetCtxs replies of data/crypto/perps (one moment each: the validator-run dex's BTC
//             and ETH, the xyz dex's US stock perps), through server/market/providers/hyperliquid-recordings.ts
//   live      Hyperliquid's info API: perpDexs, then metaAndAssetCtxs for the validator-run dex and each HIP-3 dex
//             (server/market/providers/hyperliquid.ts, HYPERLIQUID_BASE_URL)
// The universe: every listed market of the validator-run dex (crypto), and on HIP-3 dexes the US stocks of
// data/market/perps/equity-perp-tickers.json (the basis universe; indices, commodities and FX are left out).
import { cached, dataFile } from "../../providers/data-file";
import { hyperliquidInfo, readAssetContexts, type AssetContext } from "../../providers/hyperliquid";
import { recordedContexts } from "../../providers/hyperliquid-recordings";
import type { ProviderFamily } from "../../providers/types";

export type PerpContextsHeld = {
  as_of: string;
  contexts: (AssetContext & { as_of: string })[];
  /** Each recording served, with its moment and origin; null for live data. */
  recordings: { dex: string | null; recorded_at: string; source: string }[] | null;
};

export interface PerpContextsSource {
  getContexts(): Promise<PerpContextsHeld>;
}

export const equityPerpUniverse = () =>
  cached("perp-equity-universe", () => new Set(dataFile<{ tickers: string[] }>("market/perps/equity-perp-tickers.json").tickers));

/** Markets this operation serves: not delisted; on a HIP-3 dex, only US stocks. */
export const inUniverse = (c: AssetContext) => !c.isDelisted && (c.dex === null || equityPerpUniverse().has(c.name));

export const embeddedPerpContexts: PerpContextsSource = {
  async getContexts() {
    const recs = recordedContexts();
    const contexts = recs.flatMap((r) => r.contexts.filter(inUniverse).map((c) => ({ ...c, as_of: r.recorded_at })));
    return {
      as_of: recs
        .map((r) => r.recorded_at)
        .sort()
        .at(-1)!,
      contexts,
      recordings: recs.map(({ dex, recorded_at, source }) => ({ dex, recorded_at, source })),
    };
  },
};

export const perpContextsSource: ProviderFamily<PerpContextsSource> = {
  name: "hyperliquid-perp-contexts",
  embedded: () => embeddedPerpContexts,
  live: (cfg) => ({
    async getContexts() {
      const post = hyperliquidInfo(cfg);
      const dexDoc = await post({ type: "perpDexs" }, "perpDexs");
      // The first entry is the validator-run dex, given as null.
      const dexes = (Array.isArray(dexDoc) ? dexDoc : []).filter((d): d is { name: string } => !!d && typeof d.name === "string").map((d) => d.name);
      const docs = await Promise.all([
        post({ type: "metaAndAssetCtxs" }, "metaAndAssetCtxs").then((doc) => readAssetContexts(null, doc)),
        ...dexes.map((dex) => post({ type: "metaAndAssetCtxs", dex }, `metaAndAssetCtxs (${dex})`).then((doc) => readAssetContexts(dex, doc))),
      ]);
      const as_of = new Date().toISOString();
      return {
        as_of,
        contexts: docs
          .flat()
          .filter(inUniverse)
          .map((c) => ({ ...c, as_of })),
        recordings: null,
      };
    },
  }),
};
