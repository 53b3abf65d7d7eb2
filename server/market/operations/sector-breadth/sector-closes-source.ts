// The sector breadth operation's own source: daily closes of the 11 Select Sector SPDR ETFs, in both kinds:
//   embedded  data/stocks/XL*.csv (Yahoo Finance via ta4j, 2023-01 .. 2026-07; the adjustment basis is in catalog.json)
//   live      the shared daily bars (Massive, adjusted=true: split-adjusted, not dividend-adjusted), one call per member
import { cached, dataFile, dataText } from "../../providers/data-file";
import type { AggregatesProvider, ProviderFamily } from "../../providers/types";

/** The 11 Select Sector SPDR ETFs: one per GICS sector of the S&P 500. */
export const SECTOR_ETFS = [
  { ticker: "XLB", sector: "Materials" },
  { ticker: "XLC", sector: "Communication Services" },
  { ticker: "XLE", sector: "Energy" },
  { ticker: "XLF", sector: "Financials" },
  { ticker: "XLI", sector: "Industrials" },
  { ticker: "XLK", sector: "Information Technology" },
  { ticker: "XLP", sector: "Consumer Staples" },
  { ticker: "XLRE", sector: "Real Estate" },
  { ticker: "XLU", sector: "Utilities" },
  { ticker: "XLV", sector: "Health Care" },
  { ticker: "XLY", sector: "Consumer Discretionary" },
] as const;

export type DailyClose = { date: string; close: number };
export type SectorCloses = {
  /** Each member's closes in date order, from far enough before `from` for the window (live) or all held (embedded). */
  byTicker: Map<string, DailyClose[]>;
  /** How the closes are adjusted, and by whom: written into the answer. */
  basis: string;
  inputs: string;
  retrievedAt: string | null;
};
export interface SectorClosesSource {
  readonly kind: "embedded" | "live";
  /** Closes through `to` (default: the latest), reaching `window` trading days before `from` where held. */
  closes(window: number, from?: string, to?: string): Promise<SectorCloses>;
}

type CatalogEntry = { ticker: string; file: string; adjustment: { splits: string; dividends: string }; first: string; last: string; rows: number };

export const stocksCatalog = () => cached("stocks:catalog", () => dataFile<CatalogEntry[]>("stocks/catalog.json"));

function readCloses(file: string): DailyClose[] {
  const [header, ...lines] = dataText(`stocks/${file}`).trim().split(/\r?\n/);
  const cols = header!.split(",");
  const [di, ci] = [cols.indexOf("date"), cols.indexOf("close")];
  return lines.map((l) => {
    const v = l.split(",");
    return { date: v[di]!, close: Number(v[ci]) };
  });
}

/** The held members' closes and the catalog's words for their adjustment (what the embedded kind covers). */
export function embeddedSectorCloses(): SectorCloses {
  return cached("sector-breadth:closes", () => {
    const catalog = stocksCatalog();
    const entries = SECTOR_ETFS.map((m) => catalog.find((c) => c.ticker === m.ticker)).filter((c): c is CatalogEntry => !!c);
    const bases = [...new Set(entries.map((c) => `splits ${c.adjustment.splits}; dividends ${c.adjustment.dividends}`))];
    return {
      byTicker: new Map(entries.map((c) => [c.ticker, readCloses(c.file)])),
      basis: `Closes as held offline (data/stocks/catalog.json): ${bases.join(" | ")}. That is a total-return basis: prices are not as traded.`,
      inputs: "Yahoo Finance daily bars via ta4j (data/stocks/SOURCES.md)",
      retrievedAt: null,
    };
  });
}

const DAY_MS = 86_400_000;
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

function liveSectorCloses(aggregates: AggregatesProvider): SectorClosesSource {
  return {
    kind: "live",
    async closes(window, from, to) {
      const end = to ?? isoDay(Date.now());
      // `window` trading days before `from` (about 7 calendar days per 5 sessions, plus holidays).
      const start = isoDay(Date.parse(`${from ?? end}T00:00:00Z`) - Math.ceil(window * 1.5 + 15) * DAY_MS);
      const bars = await Promise.all(SECTOR_ETFS.map((m) => aggregates.getDailyBars(m.ticker, start, end)));
      return {
        byTicker: new Map(SECTOR_ETFS.map((m, i) => [m.ticker, bars[i]!.map((b) => ({ date: b.date, close: b.close }))])),
        basis: "Closes from Massive's daily bars with adjusted=true: split-adjusted, not dividend-adjusted (price return).",
        inputs: "Massive (formerly Polygon.io) daily aggregates",
        retrievedAt: new Date().toISOString(),
      };
    },
  };
}

export const sectorClosesSource: ProviderFamily<SectorClosesSource> = {
  name: "sector-closes",
  embedded: () => ({ kind: "embedded", closes: async () => embeddedSectorCloses() }),
  live: (_cfg, shared) => liveSectorCloses(shared.aggregates),
};
