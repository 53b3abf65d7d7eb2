// Tests only: the live vendors' settings every live adapter's test builds the same way, with the shared vendors left
// empty (an operation's own vendor is named in `settings`) and short timings, so a replayed failure is retried once
// without waiting.
import type { LiveConfig } from "../providers/types";

export function liveConfig(settings: Record<string, string | undefined>, timing: Pick<LiveConfig, "timeoutMs" | "retries" | "backoffMs"> = {}): LiveConfig {
  return { massiveBaseUrl: "", massiveApiKey: "", treasuryBaseUrl: "", hyperliquidBaseUrl: "", timeoutMs: 500, retries: 1, backoffMs: 1, ...timing, settings };
}
