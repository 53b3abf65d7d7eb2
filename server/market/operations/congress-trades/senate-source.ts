// The congressional trades operation's own source, in both kinds:
//   embedded  data/congress/senate-ptr-transactions.csv (Senate PTRs received 2020-01 .. 2021-03; SOURCES.md beside it)
//   live      Senate Stock Watcher's aggregate file (aggregate/all_daily_summaries.json of
//             timothycarambat/senate-stock-watcher-data, transcribed from the Senate's eFD), at SENATE_STOCK_WATCHER_URL;
//             about 2.6 MB, read at most once an hour per process (the dataset is updated rarely: its last update is of
//             2021-03-15)
// Both produce the same rows (senate-rows.ts), so the answer is built once.
import { parse } from "csv-parse/sync";
import { AppError } from "../../../errors";
import { cached, dataText } from "../../providers/data-file";
import { fetchJson } from "../../providers/http";
import { liveSetting } from "../../providers/live-setting";
import type { LiveConfig, ProviderFamily } from "../../providers/types";
import { rowsFromFilings, type SenateFiling, type SenateRow } from "./senate-rows";

export const SENATE_CSV = "congress/senate-ptr-transactions.csv";
export const SENATE_STOCK_WATCHER_DEFAULT_URL =
  "https://raw.githubusercontent.com/timothycarambat/senate-stock-watcher-data/master/aggregate/all_daily_summaries.json";

export type SenateTrades = { rows: SenateRow[]; retrievedAt: string | null; skipped: number };
export interface SenateTradesSource {
  readonly kind: "embedded" | "live";
  load(): Promise<SenateTrades>;
}

/** The committed CSV's rows, in file order. */
export const embeddedSenateRows = () => cached("congress:senate", () => parse(dataText(SENATE_CSV), { columns: true, skip_empty_lines: true }) as SenateRow[]);

const HOUR_MS = 3_600_000;
const kept = new Map<string, { at: number; value: Promise<SenateTrades> }>();

/** Tests only: forget the kept aggregate file. */
export function resetSenateCache(): void {
  kept.clear();
}

function liveSenate(cfg: LiveConfig): SenateTradesSource {
  return {
    kind: "live",
    load() {
      const url = liveSetting(cfg, "SENATE_STOCK_WATCHER_URL", SENATE_STOCK_WATCHER_DEFAULT_URL);
      const hit = kept.get(url);
      if (hit && Date.now() - hit.at < HOUR_MS) return hit.value;
      const value = (async () => {
        const res = await fetchJson<SenateFiling[]>(url, {
          provider: "senate stock watcher",
          timeoutMs: cfg.timeoutMs ?? 30_000,
          retries: cfg.retries,
          backoffMs: cfg.backoffMs,
        });
        if (!res.ok)
          throw new AppError("upstream_unavailable", {
            reason: "provider_error",
            detail: `the Senate Stock Watcher dataset answered ${res.failure.status} (SENATE_STOCK_WATCHER_URL)`,
          });
        if (!Array.isArray(res.body))
          throw new AppError("upstream_unavailable", { reason: "invalid_response", detail: "the Senate Stock Watcher dataset is not a list of reports" });
        return { ...rowsFromFilings(res.body), retrievedAt: new Date().toISOString() };
      })();
      kept.set(url, { at: Date.now(), value });
      value.catch(() => kept.delete(url));
      return value;
    },
  };
}

export const senateTradesSource: ProviderFamily<SenateTradesSource> = {
  name: "senate-trades",
  embedded: () => ({ kind: "embedded", load: async () => ({ rows: embeddedSenateRows(), retrievedAt: null, skipped: 0 }) }),
  live: (cfg) => liveSenate(cfg),
};
