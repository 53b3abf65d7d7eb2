// The BLS Public Data API v2 (`POST timeseries/data/`), the publisher's own numbers for the series BLS produces. A key
// (BLS_API_KEY, sent as `registrationkey`) is optional: without one BLS serves 10 years per request and 25 requests a
// day, with one 20 years and 500. BLS answers HTTP 200 even when it refuses (`status` REQUEST_NOT_PROCESSED, a
// `message` list), so the status field decides. BLS_BASE_URL.
import { AppError } from "../../../errors";
import { fetchJson } from "../../providers/http";
import { liveSetting } from "../../providers/live-setting";
import type { LiveConfig } from "../../providers/types";

export const BLS_DEFAULT_BASE_URL = "https://api.bls.gov/publicAPI/v2";

/** BLS's own ids for the FRED series it publishes (FRED copies these numbers unchanged). */
export const BLS_SERIES: Record<string, string> = {
  UNRATE: "LNS14000000",
  PAYEMS: "CES0000000001",
  CPIAUCSL: "CUSR0000SA0",
};

/** Years BLS serves in one request: with a registration key, and without one. */
export const BLS_YEARS_PER_REQUEST = { withKey: 20, withoutKey: 10 };

type BlsReply = {
  status?: string;
  message?: string[];
  Results?: { series?: { seriesID: string; data?: { year: string; period: string; value: string }[] }[] };
};

export type BlsClient = {
  /** Years one request may span with the configured key. */
  yearsPerRequest(): number;
  /** The monthly observations of a BLS series for whole years, oldest first (BLS's annual averages, M13, left out). */
  monthly(blsId: string, startYear: number, endYear: number): Promise<{ date: string; value: number | null }[]>;
};

function blsRefusal(reply: BlsReply): AppError {
  const message = (reply.message ?? []).join(" ");
  const quota = /threshold|daily limit|exceeded/i.test(message);
  return new AppError("upstream_unavailable", {
    reason: quota ? "provider_rate_limited" : "provider_error",
    detail: `BLS did not process the request (${reply.status ?? "no status"})${message ? `: ${message}` : ""}`,
  });
}

export function blsClient(cfg: LiveConfig): BlsClient {
  const key = () => cfg.settings?.BLS_API_KEY || undefined;
  return {
    yearsPerRequest: () => (key() ? BLS_YEARS_PER_REQUEST.withKey : BLS_YEARS_PER_REQUEST.withoutKey),
    async monthly(blsId, startYear, endYear) {
      const base = liveSetting(cfg, "BLS_BASE_URL", BLS_DEFAULT_BASE_URL).replace(/\/+$/, "");
      const registrationkey = key();
      const res = await fetchJson<BlsReply>(`${base}/timeseries/data/`, {
        method: "POST",
        body: { seriesid: [blsId], startyear: String(startYear), endyear: String(endYear), ...(registrationkey ? { registrationkey } : {}) },
        provider: "bls",
        redact: registrationkey ? [registrationkey] : [],
        timeoutMs: cfg.timeoutMs,
        retries: cfg.retries,
        backoffMs: cfg.backoffMs,
      });
      if (!res.ok) throw new AppError("upstream_unavailable", { reason: "provider_error", detail: `BLS answered ${res.failure.status}` });
      const reply = res.body;
      if (reply.status !== "REQUEST_SUCCEEDED") throw blsRefusal(reply);
      const series = reply.Results?.series?.find((s) => s.seriesID === blsId);
      if (!series || !Array.isArray(series.data))
        throw new AppError("upstream_unavailable", { reason: "invalid_response", detail: `BLS's answer holds no series ${blsId}` });
      return series.data
        .filter((d) => /^M(0[1-9]|1[0-2])$/.test(d.period) && Number(d.year) >= startYear && Number(d.year) <= endYear)
        .map((d) => {
          const n = Number(d.value);
          // BLS marks a value it does not have with "-"; that is no value, not a zero.
          return { date: `${d.year}-${d.period.slice(1)}-01`, value: d.value.trim() !== "" && Number.isFinite(n) ? n : null };
        })
        .sort((a, b) => (a.date < b.date ? -1 : 1));
    },
  };
}
