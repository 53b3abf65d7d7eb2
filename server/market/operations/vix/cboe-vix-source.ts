// The VIX operation's own source, in both kinds:
//   embedded  data/sentiment/vix-daily.csv (CBOE's VIX_History.csv from 2000 on, ISO dates; SOURCES.md beside it)
//   live      CBOE's VIX_History.csv (cdn.cboe.com/api/global/us_indices/daily_prices/VIX_History.csv) at CBOE_VIX_URL:
//             DATE,OPEN,HIGH,LOW,CLOSE with MM/DD/YYYY dates, the whole history since 1990 (about 9,000 rows), read at most
//             once an hour per process (CBOE adds one row a trading day)
// CBOE's file is CSV, not JSON, so it is read as text here (with a timeout and one retry on a 5xx).
import { AppError } from "../../../errors";
import { cached, dataText } from "../../providers/data-file";
import { liveSetting } from "../../providers/live-setting";
import type { LiveConfig, ProviderFamily } from "../../providers/types";

export const VIX_CSV = "sentiment/vix-daily.csv";
export const CBOE_VIX_DEFAULT_URL = "https://cdn.cboe.com/api/global/us_indices/daily_prices/VIX_History.csv";

/** One published row: index points, as CBOE wrote them. */
export type VixRow = { date: string; open: number; high: number; low: number; close: number };
export type VixHistory = { rows: VixRow[]; retrievedAt: string | null };
export interface VixSource {
  readonly kind: "embedded" | "live";
  load(): Promise<VixHistory>;
}

const badFile = (detail: string) => new AppError("upstream_unavailable", { reason: "invalid_response", detail: `CBOE's VIX history ${detail}` });

/** `date,open,high,low,close` (any case; dates ISO or MM/DD/YYYY) to rows in date order. */
export function parseVixCsv(text: string): VixRow[] {
  const lines = text
    .replace(/^\uFEFF/, "")
    .trim()
    .split(/\r?\n/);
  if (lines[0]?.trim().toLowerCase() !== "date,open,high,low,close") throw badFile(`has an unexpected header: ${lines[0]?.slice(0, 80)}`);
  const rows: VixRow[] = [];
  for (const line of lines.slice(1)) {
    const [d, ...v] = line.split(",");
    const us = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(d?.trim() ?? "");
    const date = us ? `${us[3]}-${us[1]}-${us[2]}` : (d?.trim() ?? "");
    const n = v.map((x) => Number(x));
    if (!/^\d{4}-\d{2}-\d{2}$/.test(date) || n.length !== 4 || n.some((x) => !Number.isFinite(x)))
      throw badFile(`has a row that is not a date and four numbers: ${line.slice(0, 80)}`);
    rows.push({ date, open: n[0]!, high: n[1]!, low: n[2]!, close: n[3]! });
  }
  return rows.sort((a, b) => a.date.localeCompare(b.date));
}

export const embeddedVixRows = () => cached("vix:daily", () => parseVixCsv(dataText(VIX_CSV)));

async function fetchText(url: string, timeoutMs: number): Promise<string> {
  for (let attempt = 0; ; attempt++) {
    const ctl = new AbortController();
    const timer = setTimeout(() => ctl.abort(), timeoutMs);
    try {
      const res = await fetch(url, { headers: { accept: "text/csv,*/*" }, signal: ctl.signal });
      if (res.ok) return await res.text();
      if (res.status >= 500 && attempt === 0) continue;
      throw new AppError("upstream_unavailable", { reason: "provider_error", detail: `CBOE answered ${res.status} for the VIX history (CBOE_VIX_URL)` });
    } catch (err) {
      if (err instanceof AppError) throw err;
      if ((err as Error)?.name === "AbortError") throw new AppError("upstream_timeout", { detail: `CBOE did not answer within ${timeoutMs} ms` });
      if (attempt === 0) continue;
      throw new AppError("upstream_unavailable", { reason: "provider_unreachable", detail: "CBOE could not be reached" });
    } finally {
      clearTimeout(timer);
    }
  }
}

const HOUR_MS = 3_600_000;
const kept = new Map<string, { at: number; value: Promise<VixHistory> }>();

/** Tests only: forget the kept history. */
export function resetVixCache(): void {
  kept.clear();
}

function liveVix(cfg: LiveConfig): VixSource {
  return {
    kind: "live",
    load() {
      const url = liveSetting(cfg, "CBOE_VIX_URL", CBOE_VIX_DEFAULT_URL);
      const hit = kept.get(url);
      if (hit && Date.now() - hit.at < HOUR_MS) return hit.value;
      const value = fetchText(url, cfg.timeoutMs ?? 15_000).then((text) => ({ rows: parseVixCsv(text), retrievedAt: new Date().toISOString() }));
      kept.set(url, { at: Date.now(), value });
      value.catch(() => kept.delete(url));
      return value;
    },
  };
}

export const cboeVixSource: ProviderFamily<VixSource> = {
  name: "cboe-vix",
  embedded: () => ({ kind: "embedded", load: async () => ({ rows: embeddedVixRows(), retrievedAt: null }) }),
  live: (cfg) => liveVix(cfg),
};
