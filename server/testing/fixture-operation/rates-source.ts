// The fixture operation's own source, in both kinds (a ProviderFamily, built by the shared provider selection):
//   embedded  data/market/treasury/avg-interest-rates.json, Fiscal Data's own answer committed with its source
//             (data/market/README.md), read once on first use
//   live      Fiscal Data's API, one record date per call; its base URL is a setting read by name (liveSetting), as an
//             operation with a vendor of its own does, so adding it edits nothing shared
import { AppError } from "../../errors";
import { cached, dataFile } from "../../market/providers/data-file";
import { fetchJson } from "../../market/providers/http";
import { liveSetting } from "../../market/providers/live-setting";
import type { ProviderFamily } from "../../market/providers/types";

export type RateRow = { security_type_desc: string; security_desc: string; avg_interest_rate_amt: string | null; src_line_nbr: string; record_date: string };

export interface RatesOnDate {
  /** The rows of one record date (or the latest one held) in the Treasury's line order; null when it is not held. */
  ratesOn(recordDate: string | "latest"): Promise<{ as_of: string | null; record_date: string; rows: RateRow[] } | null>;
  /** The record dates held, oldest first; null when open-ended (live). */
  recordDates(): string[] | null;
}

const FILE = "market/treasury/avg-interest-rates.json";
const byLine = (a: RateRow, b: RateRow) => Number(a.src_line_nbr) - Number(b.src_line_nbr);
const rowsOf = () => cached("fixture-rates", () => dataFile<{ data: RateRow[] }>(FILE).data);

/** The record dates the committed file holds, oldest first (what the embedded kind covers). */
export const embeddedRecordDates = () => [...new Set(rowsOf().map((r) => r.record_date))].sort();

const embedded: RatesOnDate = {
  async ratesOn(recordDate) {
    const date = recordDate === "latest" ? embeddedRecordDates().at(-1) : recordDate;
    const rows = rowsOf().filter((r) => r.record_date === date);
    // The committed file's retrieval time is not known precisely, so as_of is null.
    return rows.length ? { as_of: null, record_date: date!, rows: rows.sort(byLine) } : null;
  },
  recordDates: embeddedRecordDates,
};

export const fixtureRatesSource: ProviderFamily<RatesOnDate> = {
  name: "fixture-rates",
  embedded: () => embedded,
  live: (cfg) => ({
    async ratesOn(recordDate) {
      const base = liveSetting(cfg, "FIXTURE_RATES_BASE_URL", cfg.treasuryBaseUrl);
      // The latest date: newest first, then the rows of the first date answered.
      const qs =
        recordDate === "latest"
          ? "sort=-record_date,src_line_nbr&page%5Bsize%5D=100"
          : `filter=record_date:eq:${recordDate}&sort=src_line_nbr&page%5Bsize%5D=100`;
      const res = await fetchJson<{ data: RateRow[] }>(`${base.replace(/\/+$/, "")}/v2/accounting/od/avg_interest_rates?${qs}`, {
        provider: "treasury",
        timeoutMs: cfg.timeoutMs,
        retries: cfg.retries,
        backoffMs: cfg.backoffMs,
      });
      if (!res.ok) throw new AppError("upstream_unavailable", { reason: "provider_error", detail: `treasury answered ${res.failure.status}` });
      const first = res.body.data?.[0]?.record_date;
      if (!first) return null;
      return { as_of: new Date().toISOString(), record_date: first, rows: res.body.data.filter((r) => r.record_date === first).sort(byLine) };
    },
    recordDates: () => null,
  }),
};
