// Recording the embedded equity-perp snapshot (the data the embedded basis operation serves offline):
// Hyperliquid's perpDexs and metaAndAssetCtxs per HIP-3 dex exactly as returned, and the matching equity
// quotes from Massive daily aggregates, stamped provenance.kind "recorded". The CLI is
// record-basis-snapshot.ts; the embedded provider serves nothing else (no file or another kind: 403).
import fs from "node:fs";
import path from "node:path";
import { fetchJson } from "../../providers/http";
import { massiveAggregates } from "../../providers/live";
import { aggregatesQuotes, equityPerpContexts, equityPerpTickers } from "./perps";

export type RecordConfig = { hyperliquidBaseUrl: string; massiveBaseUrl: string; massiveApiKey: string; now?: () => Date };

export async function recordBasisSnapshot(cfg: RecordConfig, outFile: string): Promise<{ perps: number; quotes: number }> {
  const now = cfg.now ?? (() => new Date());
  const hl = `${cfg.hyperliquidBaseUrl.replace(/\/+$/, "")}/info`;
  const post = async (body: unknown) => {
    const r = await fetchJson(hl, { provider: "hyperliquid", method: "POST", body });
    if (!r.ok) throw new Error(`hyperliquid ${JSON.stringify(body)} answered ${r.failure.status}`);
    return r.body;
  };
  const recordedAt = now().toISOString();
  const perpDexs = (await post({ type: "perpDexs" })) as ({ name: string } | null)[];
  if (!Array.isArray(perpDexs)) throw new Error("hyperliquid perpDexs did not answer a list");
  const metaAndAssetCtxs: Record<string, unknown> = {};
  // The first entry is the native (non-HIP-3) dex, given as null.
  for (const d of perpDexs) if (d) metaAndAssetCtxs[d.name] = await post({ type: "metaAndAssetCtxs", dex: d.name });
  const names = [...new Set(Object.entries(metaAndAssetCtxs).flatMap(([dex, doc]) => equityPerpContexts(dex, doc, equityPerpTickers()).map((c) => c.name)))];
  const aggs = massiveAggregates({ massiveBaseUrl: cfg.massiveBaseUrl, massiveApiKey: cfg.massiveApiKey, treasuryBaseUrl: "", hyperliquidBaseUrl: "" });
  const { quotes } = await aggregatesQuotes(aggs, now).getQuotes(names);
  const out = {
    provenance: {
      kind: "recorded",
      recorded_at: recordedAt,
      source: "Hyperliquid info API (perpDexs, metaAndAssetCtxs per HIP-3 dex) and Massive daily aggregates, recorded by record-basis-snapshot.ts",
      note: "Recorded from Hyperliquid's info API (perpDexs, metaAndAssetCtxs per HIP-3 dex) and Massive daily aggregates (price = last daily close, prev_close = the one before).",
    },
    perpDexs,
    metaAndAssetCtxs,
    equityQuotes: Object.fromEntries(quotes),
  };
  // Write then rename: a failed run never leaves a half-written snapshot behind.
  fs.mkdirSync(path.dirname(outFile), { recursive: true });
  const tmp = `${outFile}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, `${JSON.stringify(out, null, 1)}\n`);
  fs.renameSync(tmp, outFile);
  return { perps: names.length, quotes: quotes.size };
}
