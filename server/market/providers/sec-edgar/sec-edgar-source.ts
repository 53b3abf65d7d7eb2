// SEC EDGAR as a provider family, shared by the operations that read it (the filings index, the key facts): offline the
// committed EDGAR documents (embedded-edgar.ts), live data.sec.gov and www.sec.gov (live-edgar.ts). One source for both
// operations so they resolve tickers alike and EDGAR's rate limit is counted once.
import type { ProviderFamily } from "../types";
import { embeddedEdgar } from "./embedded-edgar";
import type { SecEdgar } from "./edgar-types";
import { liveEdgar } from "./live-edgar";

export const secEdgarSource: ProviderFamily<SecEdgar> = {
  name: "sec-edgar",
  embedded: () => embeddedEdgar,
  live: (cfg) => liveEdgar(cfg),
};

export { embeddedHeldCompanies } from "./embedded-edgar";
export * from "./edgar-types";
