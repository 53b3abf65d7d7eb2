// Provider selection: MARKET_PROVIDER picks the kind once per process (embedded by default); tests swap the set.
import { env } from "../../env";
import { embeddedProviders } from "./embedded";
import { liveProviders } from "./live";
import type { MarketProviders } from "./types";

let current: MarketProviders | undefined;

/** The providers MARKET_PROVIDER selects (embedded by default). */
export function getMarketProviders(): MarketProviders {
  if (current) return current;
  const e = env();
  current =
    e.MARKET_PROVIDER === "live"
      ? liveProviders({
          massiveBaseUrl: e.MASSIVE_BASE_URL,
          massiveApiKey: e.MASSIVE_API_KEY ?? "",
          treasuryBaseUrl: e.TREASURY_BASE_URL,
          hyperliquidBaseUrl: e.HYPERLIQUID_BASE_URL,
          settings: process.env,
        })
      : embeddedProviders();
  return current;
}

/** Tests only: swap the providers (pass undefined to go back to the environment's choice). */
export function setMarketProvidersForTests(p: MarketProviders | undefined): void {
  current = p;
}
