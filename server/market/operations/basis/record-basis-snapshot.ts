// Record the embedded equity-perp snapshot on a machine with network access:
//   MASSIVE_API_KEY=... npx tsx server/market/operations/basis/record-basis-snapshot.ts
// Writes data/market/perps/equity-perps-snapshot.json with provenance.kind "recorded" (see basis-snapshot.ts);
// commit it and the embedded provider serves the basis operation offline from it.
import path from "node:path";
import { recordBasisSnapshot } from "./basis-snapshot";
import { PERP_SNAPSHOT_FILE } from "./perps";

async function main() {
  const key = process.env.MASSIVE_API_KEY;
  if (!key) throw new Error("MASSIVE_API_KEY is required (equity quotes)");
  const file = path.join(process.env.MARKET_DATA_ROOT ?? process.cwd(), "data", PERP_SNAPSHOT_FILE);
  const res = await recordBasisSnapshot(
    {
      hyperliquidBaseUrl: process.env.HYPERLIQUID_BASE_URL || "https://api.hyperliquid.xyz",
      massiveBaseUrl: process.env.MASSIVE_BASE_URL || "https://api.massive.com",
      massiveApiKey: key,
    },
    file,
  );
  console.log(`wrote ${file}: ${res.perps} US stock perps, ${res.quotes} quotes`);
}

main().catch((e) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
