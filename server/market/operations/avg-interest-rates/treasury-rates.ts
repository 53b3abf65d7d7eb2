// This operation's own source, in both kinds: the US Treasury's average interest rates on its debt.
//   embedded  data/market/treasury/avg-interest-rates.json (a Fiscal Data answer, committed; source beside it)
//   live      Fiscal Data v2/accounting/od/avg_interest_rates (TREASURY_BASE_URL), the latest record_date
import { AppError } from "../../../errors";
import { cached, dataFile } from "../../providers/data-file";
import { fetchJson } from "../../providers/http";
import type { LiveConfig, ProviderFamily } from "../../providers/types";

export type TreasuryRateRow = { security_type_desc: string; security_desc: string; avg_interest_rate_amt: string | null; src_line_nbr: number };

export interface RatesProvider {
  readonly name: string;
  getLatestAvgInterestRates(): Promise<{ record_date: string | null; as_of: string | null; rows: TreasuryRateRow[] }>;
}

type FiscalDataDoc = { data: (Omit<TreasuryRateRow, "src_line_nbr"> & { record_date: string; src_line_nbr: string })[] };

/** The committed Fiscal Data answer (relative to data/). */
export const TREASURY_FILE = "market/treasury/avg-interest-rates.json";

/** The latest record_date's rows of a Fiscal Data avg_interest_rates answer, in source line order. */
export function latestTreasuryRows(doc: FiscalDataDoc): { record_date: string | null; rows: TreasuryRateRow[] } {
  if (!doc || !Array.isArray(doc.data))
    throw new AppError("upstream_unavailable", { reason: "invalid_response", detail: "treasury avg_interest_rates has an unexpected shape" });
  const latest = doc.data.reduce<string | null>((m, r) => (m === null || r.record_date > m ? r.record_date : m), null);
  const rows = doc.data
    .filter((r) => r.record_date === latest)
    .map((r) => ({
      security_type_desc: r.security_type_desc,
      security_desc: r.security_desc,
      avg_interest_rate_amt: r.avg_interest_rate_amt,
      src_line_nbr: Number(r.src_line_nbr),
    }))
    .sort((a, b) => a.src_line_nbr - b.src_line_nbr);
  return { record_date: latest, rows };
}

/** The record dates the committed file holds and the rows on the latest (what the embedded kind covers). */
export function embeddedTreasuryCoverage(): { recordDates: string[]; rows: number } {
  const doc = cached("treasury", () => dataFile<FiscalDataDoc>(TREASURY_FILE));
  return { recordDates: [...new Set(doc.data.map((r) => r.record_date))].sort(), rows: latestTreasuryRows(doc).rows.length };
}

export const embeddedRates: RatesProvider = {
  name: "embedded",
  async getLatestAvgInterestRates() {
    const doc = cached("treasury", () => dataFile<FiscalDataDoc>(TREASURY_FILE));
    // The snapshot's retrieval time is not known precisely, so as_of is null (the spec allows it here).
    return { ...latestTreasuryRows(doc), as_of: null };
  },
};

const trim = (u: string) => u.replace(/\/+$/, "");

export function liveTreasuryRates(cfg: LiveConfig, now: () => Date = () => new Date()): RatesProvider {
  return {
    name: "treasury",
    async getLatestAvgInterestRates() {
      const qs = "fields=record_date,security_type_desc,security_desc,avg_interest_rate_amt,src_line_nbr&sort=-record_date,src_line_nbr&page%5Bsize%5D=100";
      const res = await fetchJson<FiscalDataDoc>(`${trim(cfg.treasuryBaseUrl)}/v2/accounting/od/avg_interest_rates?${qs}`, {
        provider: "treasury",
        timeoutMs: cfg.timeoutMs,
        retries: cfg.retries,
        backoffMs: cfg.backoffMs,
      });
      if (!res.ok) throw new AppError("upstream_unavailable", { reason: "provider_error", detail: `treasury answered ${res.failure.status}` });
      return { ...latestTreasuryRows(res.body), as_of: now().toISOString() };
    },
  };
}

export const treasuryRates: ProviderFamily<RatesProvider> = {
  name: "treasury-rates",
  embedded: () => embeddedRates,
  live: (cfg) => liveTreasuryRates(cfg),
};
