// Re-record the embedded equity-perp snapshot on a machine with network access:
//   MASSIVE_API_KEY=... npx tsx server/market/basis/record-basis-snapshot.ts
// Writes data/market/perps/equity-perps-snapshot.json: Hyperliquid's perpDexs and metaAndAssetCtxs per
// HIP-3 dex exactly as returned, and the matching equity quotes from the aggregates provider.
import fs from "node:fs";
import path from "node:path";
import { equityPerpContexts, equityPerpTickers } from "../providers/embedded";
import { fetchJson } from "../providers/http";
import { aggregatesQuotes, massiveAggregates } from "../providers/live";

async function main() {
  const key = process.env.MASSIVE_API_KEY;
  if (!key) throw new Error("MASSIVE_API_KEY is required (equity quotes)");
  const hl = `${(process.env.HYPERLIQUID_BASE_URL ?? "https://api.hyperliquid.xyz").replace(/\/$/, "")}/info`;
  const post = async (body: unknown) => {
    const r = await fetchJson(hl, { provider: "hyperliquid", method: "POST", body });
    if (!r.ok) throw new Error(`hyperliquid ${JSON.stringify(body)} answered ${r.failure.status}`);
    return r.body;
  };
  const recordedAt = new Date().toISOString();
  const perpDexs = (await post({ type: "perpDexs" })) as ({ name: string } | null)[];
  const metaAndAssetCtxs: Record<string, unknown> = {};
  for (const d of perpDexs) if (d) metaAndAssetCtxs[d.name] = await post({ type: "metaAndAssetCtxs", dex: d.name });
  const names = [...new Set(Object.entries(metaAndAssetCtxs).flatMap(([dex, doc]) => equityPerpContexts(dex, doc, equityPerpTickers()).map((c) => c.name)))];
  const aggs = massiveAggregates({ massiveBaseUrl: process.env.MASSIVE_BASE_URL ?? "https://api.massive.com", massiveApiKey: key, treasuryBaseUrl: "", hyperliquidBaseUrl: "" });
  const { quotes } = await aggregatesQuotes(aggs).getQuotes(names);
  const out = {
    provenance: { kind: "recorded", recorded_at: recordedAt, note: "Recorded from Hyperliquid's info API (perpDexs, metaAndAssetCtxs per HIP-3 dex) and Massive daily aggregates (price = last daily close, prev_close = the one before)." },
    perpDexs,
    metaAndAssetCtxs,
    equityQuotes: Object.fromEntries(quotes),
  };
  const file = path.join(process.cwd(), "data/market/perps/equity-perps-snapshot.json");
  fs.writeFileSync(file, `${JSON.stringify(out, null, 1)}\n`);
  console.log(`wrote ${file}: ${names.length} US stock perps, ${quotes.size} quotes`);
}

main().catch((e) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
