// This operation's own source, in both kinds (a ProviderFamily). Each currency's rates against the dollar, in the
// direction the Federal Reserve publishes them (USD per unit for AUD, EUR, GBP, NZD, IEP; units per USD otherwise):
//   embedded  daily: data/forex/daily/<FRED id>.csv (H.10 noon rates as FRED carries them; empty value = no rate);
//             monthly: data/forex/monthly.csv (G.5 averages, every row units per USD: for the five USD-per-unit
//             currencies the source repository stored round(1 / Fed value, 4), see data/forex/SOURCES.md)
//   live      daily: the Board's Data Download Program CSV for H.10 (`FED_H10_BASE_URL`, `FED_H10_PACKAGE`), columns
//             found by their unique identifier (H10/H10/RXI_N.B.JA); monthly: the same committed G.5 file (the
//             Program's monthly release is not wired here), said in the answer
import { AppError } from "../../../errors";
import { cached, dataFile, dataText } from "../../providers/data-file";
import { fetchText } from "../../providers/http";
import { liveSetting } from "../../providers/live-setting";
import type { LiveConfig, ProviderFamily } from "../../providers/types";

export type Direction = "USD_per_unit" | "units_per_USD";
export type Held = { first: string; last: string };
/** One currency's rates against the dollar: the published string (null: the source lists the date with no rate). */
export type LegSeries = {
  currency: string;
  series: string;
  direction: Direction;
  /** Monthly file rows the source repository inverted and rounded (AUD, EUR, GBP, NZD, IEP). */
  invertedBySource: boolean;
  rows: { date: string; value: string | null }[];
};

export interface ForexSource {
  readonly kind: "embedded" | "live";
  /** The days a currency's daily rates cover; "open" live (any date the Fed has published); null when none. */
  dailyHeld(currency: string): Held | "open" | null;
  monthlyHeld(currency: string): Held | null;
  daily(currencies: string[], from: string, to: string): Promise<{ legs: LegSeries[]; as_of: string | null; note: string | null }>;
  monthly(currencies: string[], from: string, to: string): Promise<{ legs: LegSeries[]; as_of: string | null; note: string | null }>;
}

type CatalogCurrency = {
  currency: string;
  fred_monthly_id: string;
  fred_quote: Direction;
  monthly_inverted_by_source: boolean;
  fred_daily_id: string | null;
  daily_quote: Direction | null;
  daily_file: string | null;
  daily_first: string | null;
  daily_last: string | null;
  monthly_first: string;
  monthly_last: string;
};

const catalog = () => cached("forex:catalog", () => dataFile<{ currencies: CatalogCurrency[] }>("forex/catalog.json").currencies);
const entry = (c: string) => catalog().find((x) => x.currency === c);

/** A daily file (date,value), oldest first; an empty value is kept as null (the Fed lists the day, no rate). */
export function embeddedDailyRows(file: string): { date: string; value: string | null }[] {
  return cached(`forex:${file}`, () =>
    dataText(`forex/${file}`)
      .trim()
      .split(/\r?\n/)
      .slice(1)
      .map((l) => {
        const [date, value] = l.split(",");
        return { date: date!, value: value ? value.trim() || null : null };
      }),
  );
}

/** monthly.csv by currency, oldest first. */
export function embeddedMonthlyRows(): Map<string, { date: string; value: string | null }[]> {
  return cached("forex:monthly", () => {
    const by = new Map<string, { date: string; value: string | null }[]>();
    for (const line of dataText("forex/monthly.csv").trim().split(/\r?\n/).slice(1)) {
      const [date, currency, value] = line.split(",");
      by.set(currency!, [...(by.get(currency!) ?? []), { date: date!, value: value?.trim() || null }]);
    }
    for (const rows of by.values()) rows.sort((a, b) => (a.date < b.date ? -1 : 1));
    return by;
  });
}

const within = (rows: LegSeries["rows"], from: string, to: string) => rows.filter((r) => r.date >= from && r.date <= to);

function monthlyLegs(currencies: string[], from: string, to: string): LegSeries[] {
  return currencies.map((c) => {
    const e = entry(c)!;
    return {
      currency: c,
      series: e.fred_monthly_id,
      direction: "units_per_USD" as const,
      invertedBySource: e.monthly_inverted_by_source,
      rows: within(embeddedMonthlyRows().get(c) ?? [], from, to),
    };
  });
}

const monthlyHeld = (c: string): Held | null => {
  const e = entry(c);
  return e ? { first: e.monthly_first, last: e.monthly_last } : null;
};

export const embeddedForex: ForexSource = {
  kind: "embedded",
  dailyHeld(c) {
    const e = entry(c);
    return e?.daily_first && e.daily_last ? { first: e.daily_first, last: e.daily_last } : null;
  },
  monthlyHeld,
  async daily(currencies, from, to) {
    const legs = currencies.map((c) => {
      const e = entry(c)!;
      return {
        currency: c,
        series: e.fred_daily_id!,
        direction: e.daily_quote!,
        invertedBySource: false,
        rows: within(embeddedDailyRows(e.daily_file!), from, to),
      };
    });
    return { legs, as_of: null, note: null };
  },
  async monthly(currencies, from, to) {
    return { legs: monthlyLegs(currencies, from, to), as_of: null, note: null };
  },
};

/** The H.10 series of each currency the release quotes daily (the Board's codes; RXI$US_ = USD per unit). */
export const H10_SERIES: Record<string, string> = {
  AUD: "RXI$US_N.B.AL",
  BRL: "RXI_N.B.BZ",
  CAD: "RXI_N.B.CA",
  CNY: "RXI_N.B.CH",
  DKK: "RXI_N.B.DN",
  EUR: "RXI$US_N.B.EU",
  HKD: "RXI_N.B.HK",
  INR: "RXI_N.B.IN",
  JPY: "RXI_N.B.JA",
  KRW: "RXI_N.B.KO",
  MYR: "RXI_N.B.MA",
  MXN: "RXI_N.B.MX",
  NOK: "RXI_N.B.NO",
  NZD: "RXI$US_N.B.NZ",
  SGD: "RXI_N.B.SI",
  ZAR: "RXI_N.B.SF",
  LKR: "RXI_N.B.SL",
  SEK: "RXI_N.B.SD",
  CHF: "RXI_N.B.SZ",
  TWD: "RXI_N.B.TA",
  THB: "RXI_N.B.TH",
  GBP: "RXI$US_N.B.UK",
};

/** A package id of the Board's Data Download Program holding the H.10 daily rates (any package holding the series works). */
export const DEFAULT_H10_PACKAGE = "f72f395f2a6b3a4bbc83b2983ad62737";

const mdy = (iso: string) => `${iso.slice(5, 7)}/${iso.slice(8, 10)}/${iso.slice(0, 4)}`;

/** The Program's CSV (five header rows, then "Time Period" and one row per date; ND = no rate), columns by identifier. */
export function parseH10Csv(text: string, currencies: string[]): LegSeries[] {
  const lines = text
    .replace(/^\uFEFF/, "")
    .trim()
    .split(/\r?\n/)
    .map(splitCsvLine);
  const row = (label: string) => lines.find((l) => l[0]?.trim() === label);
  const ids = row("Unique Identifier:");
  const units = row("Currency:");
  const multipliers = row("Multiplier:");
  const start = lines.findIndex((l) => l[0]?.trim() === "Time Period");
  if (!ids || !units || start < 0)
    throw new AppError("upstream_unavailable", { reason: "invalid_response", detail: "the Fed's H.10 download has no header rows" });
  return currencies.map((c) => {
    const id = `H10/H10/${H10_SERIES[c]}`;
    const col = ids.findIndex((x) => x.trim() === id);
    if (col < 0) throw new AppError("upstream_unavailable", { reason: "invalid_response", detail: `the H.10 download holds no column ${id}` });
    const direction: Direction = H10_SERIES[c]!.startsWith("RXI$US_") ? "USD_per_unit" : "units_per_USD";
    // The direction the identifier says must be the one the header states; a disagreement is not guessed at.
    if ((direction === "USD_per_unit") !== (units[col]?.trim() === "USD") || (multipliers?.[col] ?? "1").trim() !== "1")
      throw new AppError("upstream_unavailable", { reason: "invalid_response", detail: `the H.10 download states an unexpected unit for ${id}` });
    const rows = lines.slice(start + 1).flatMap((l) => {
      const [date, raw] = [l[0]?.trim() ?? "", l[col]?.trim() ?? ""];
      if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) return [];
      return [{ date, value: /^-?\d+(\.\d+)?$/.test(raw) ? raw : null }];
    });
    return { currency: c, series: H10_SERIES[c]!, direction, invertedBySource: false, rows };
  });
}

function splitCsvLine(line: string): string[] {
  const out: string[] = [];
  let cur = "";
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (quoted) {
      if (ch === '"' && line[i + 1] === '"') {
        cur += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cur += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ",") {
      out.push(cur);
      cur = "";
    } else cur += ch;
  }
  out.push(cur);
  return out;
}

export function liveForex(cfg: LiveConfig, now: () => Date = () => new Date()): ForexSource {
  return {
    kind: "live",
    dailyHeld: (c) => (H10_SERIES[c] ? "open" : null),
    monthlyHeld,
    async daily(currencies, from, to) {
      const base = liveSetting(cfg, "FED_H10_BASE_URL", "https://www.federalreserve.gov").replace(/\/+$/, "");
      const pkg = liveSetting(cfg, "FED_H10_PACKAGE", DEFAULT_H10_PACKAGE);
      const url =
        `${base}/datadownload/Output.aspx?rel=H10&series=${encodeURIComponent(pkg)}&lastobs=&from=${mdy(from)}&to=${mdy(to)}` +
        "&filetype=csv&label=include&layout=seriescolumn";
      const res = await fetchText(url, { provider: "federal_reserve", timeoutMs: cfg.timeoutMs, retries: cfg.retries, backoffMs: cfg.backoffMs });
      if (!res.ok) throw new AppError("upstream_unavailable", { reason: "provider_error", detail: `the Fed's data download answered ${res.failure.status}` });
      const legs = parseH10Csv(res.body, currencies).map((l) => ({ ...l, rows: within(l.rows, from, to) }));
      return { legs, as_of: now().toISOString(), note: null };
    },
    async monthly(currencies, from, to) {
      return {
        legs: monthlyLegs(currencies, from, to),
        as_of: null,
        note: "Monthly averages come from the committed G.5 file (to its last month), not fetched live.",
      };
    },
  };
}

export const forexSource: ProviderFamily<ForexSource> = {
  name: "forex",
  embedded: () => embeddedForex,
  live: (cfg) => liveForex(cfg),
};
