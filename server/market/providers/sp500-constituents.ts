// The S&P 500 members with their fundamentals, as held on the shelf (data/screeners: one run of a public job that reads
// Yahoo Finance through yfinance; members and GICS sub-industries from Wikipedia's list). Shared by the screener and the
// scores built over it; read once, lazily. Empty fields are null (Yahoo reported no value), never 0.
import { csvNumber, csvRows } from "./csv-rows";
import { cached, dataFile, dataText } from "./data-file";

export type Sp500Member = {
  symbol: string;
  name: string;
  /** The source's `Sector` column: Wikipedia's GICS Sub-Industry (not one of the 11 GICS sectors). */
  gics_sub_industry: string;
  price: number | null;
  pe_trailing: number | null;
  /** A fraction: 0.0175 is 1.75 %. */
  dividend_yield: number | null;
  eps_trailing: number | null;
  week52_low: number | null;
  week52_high: number | null;
  market_cap: number | null;
  ebitda: number | null;
  price_to_sales: number | null;
  price_to_book: number | null;
};

export const SP500_NUMERIC_COLUMNS = [
  "price",
  "pe_trailing",
  "dividend_yield",
  "eps_trailing",
  "week52_low",
  "week52_high",
  "market_cap",
  "ebitda",
  "price_to_sales",
  "price_to_book",
] as const satisfies readonly (keyof Sp500Member)[];

type Catalog = {
  file: string;
  index: string;
  figures_as_of: string;
  figures_as_of_meaning: string;
  origin: string;
  origin_detail: string;
  source: { repo: string; commit: string; path: string };
  licence: string;
};

export type Sp500Holding = {
  index: string;
  /** When the figures were produced: the source job's run (its commit time). */
  as_of: string;
  as_of_meaning: string;
  /** The figures' origin, as the envelope's `source` names it (yahoo_finance). */
  origin: string;
  provenance: string;
  licence: string;
  members: Sp500Member[];
};

export function sp500Holding(): Sp500Holding {
  return cached("sp500-constituents", () => {
    const c = dataFile<Catalog>("screeners/catalog.json");
    const members = csvRows(dataText(`screeners/${c.file}`)).map((r) => {
      const m = { symbol: r.symbol!, name: r.name!, gics_sub_industry: r.gics_sub_industry! } as Sp500Member;
      for (const col of SP500_NUMERIC_COLUMNS) m[col] = csvNumber(r[col]);
      return m;
    });
    return {
      index: c.index,
      as_of: c.figures_as_of,
      as_of_meaning: c.figures_as_of_meaning,
      origin: c.origin,
      provenance: `${c.origin_detail}; via ${c.source.repo} @ ${c.source.commit.slice(0, 8)} : ${c.source.path}`,
      licence: c.licence,
      members,
    };
  });
}
