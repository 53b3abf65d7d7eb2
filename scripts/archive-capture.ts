// npm run archive:capture - capture today's (UTC) archive day for every feed, against DATABASE_URL.
// Safe to run while app instances run their scheduler: capture takes a PostgreSQL advisory lock and a day
// already captured is left alone. Exit code 0 when every feed is captured (or already was, or is
// not_available: its provider does not include that data, e.g. basis on the embedded data without a
// recorded snapshot), 2 when some feed failed today (the others are still recorded), 1 on error.
import { db } from "../server/db/client";
import { captureArchive, captureExitCode } from "../server/market/archive/capture-archive";
import { archiveFeeds } from "../server/market/operations";
import { embeddedProviders } from "../server/market/providers/embedded";
import { liveProviders } from "../server/market/providers/live";

async function main() {
  if (!process.env.DATABASE_URL) throw new Error("DATABASE_URL is not set (npm run demo prints it; the app's scheduler also captures daily)");
  // The providers are built from the environment directly, so this command needs no app secrets.
  const live = process.env.MARKET_PROVIDER === "live";
  if (live && !process.env.MASSIVE_API_KEY) throw new Error("MASSIVE_API_KEY is required when MARKET_PROVIDER=live");
  const providers = live
    ? liveProviders({
        massiveBaseUrl: process.env.MASSIVE_BASE_URL || "https://api.massive.com",
        massiveApiKey: process.env.MASSIVE_API_KEY!,
        treasuryBaseUrl: process.env.TREASURY_BASE_URL || "https://api.fiscaldata.treasury.gov/services/api/fiscal_service",
        hyperliquidBaseUrl: process.env.HYPERLIQUID_BASE_URL || "https://api.hyperliquid.xyz",
        settings: process.env,
      })
    : embeddedProviders();
  const res = await captureArchive({ feeds: archiveFeeds(), providers });
  if (res.type === "locked") {
    console.log("archive: another capture holds the lock; nothing to do");
    return 0;
  }
  for (const o of res.outcomes) console.log(`archive ${res.observed_date} ${o.feed}/${o.entity}: ${o.status}${o.detail ? ` (${o.detail})` : ""}`);
  return captureExitCode(res.outcomes);
}

main()
  .then(async (code) => {
    await db.$disconnect();
    process.exit(code);
  })
  .catch(async (e) => {
    console.error(e instanceof Error ? e.message : e);
    await db.$disconnect().catch(() => {});
    process.exit(1);
  });
