// The shelf's daily series other than US stocks, under one namespace research can ask for by name: Coinbase crypto
// bars (OHLCV, UTC days), and close-only series (EIA spot prices, the Fed's H.10 noon rates, H.15 Treasury yields and
// the daily Fed funds rate). Each is read from its data folder's own file through the data-file floor, once, lazily;
// a day without a value in the source has no point here (nothing is filled in).
//
// Names: every id holds a "-" or a digit, which no US-listed ticker here does (they are letters with a "." class
// suffix), so a series id never shadows a stock: WTI is W&T Offshore's ticker, WTI-OIL the crude oil series.
import { csvNumber, csvRows } from "./csv-rows";
import { cached, dataFile, dataText } from "./data-file";

export type ShelfSeriesKind = "crypto" | "commodity" | "fx" | "rate";

export type ShelfSeriesDef = {
  id: string;
  name: string;
  kind: ShelfSeriesKind;
  /** The data's origin as an envelope names it: coinbase, eia, federal_reserve. */
  origin: string;
  /** Path below data/. */
  file: string;
  units: string;
  /** Only a close (value) per day: no open, high, low or volume in the source. */
  closeOnly: boolean;
  /** Bars in a year of this series, for annualising statistics: 365 for calendar-day series, 252 for trading days. */
  barsPerYear: number;
  /** What a day is and what a value means, in one sentence. */
  day: string;
  /** The identifier the publisher uses (FRED id, Coinbase product, EIA series). */
  publisherId: string;
};

export type ShelfPoint = { date: string; open: number | null; high: number | null; low: number | null; close: number; volume: number | null };

export type ShelfSeries = {
  def: ShelfSeriesDef;
  points: ShelfPoint[];
  coverage: { first: string; last: string };
  /** Days the source covers only in part (crypto: a UTC day missing some of its 4-hour candles), with the candles held. */
  partialDays: { date: string; candles: number }[];
};

type CryptoCatalog = {
  symbol: string;
  file: string;
  units: { price: string; volume: string };
  day: string;
  partial_days: { date: string; candles: number }[];
}[];
type EnergyCatalog = { file: string; name: string; eia_series: string; units: string; frequency: string }[];
type ForexCatalog = { currencies: { currency: string; fred_daily_id: string; daily_quote: string | null; daily_file: string | null }[] };
type EconomyCatalog = { id: string; title: string; units: string; frequency: string; file: string }[];

// Our names for the EIA files and FRED rate series (the publishers' ids are kept in publisherId).
const ENERGY_IDS: Record<string, string> = { RWTC: "WTI-OIL", RBRTE: "BRENT-OIL", RNGWHHD: "HENRY-HUB" };
const RATE_IDS: Record<string, string> = { DGS3MO: "UST-3M", DGS2: "UST-2Y", DGS10: "UST-10Y", DGS30: "UST-30Y", DTB3: "TBILL-3M", DFF: "FED-FUNDS" };

function definitions(): ShelfSeriesDef[] {
  const crypto = dataFile<CryptoCatalog>("crypto/catalog.json").map((c): ShelfSeriesDef => ({
    id: c.symbol,
    name: `${c.symbol} on Coinbase Exchange`,
    kind: "crypto",
    origin: "coinbase",
    file: `crypto/${c.file}`,
    units: `price ${c.units.price}; volume ${c.units.volume}`,
    closeOnly: false,
    barsPerYear: 365,
    day: c.day,
    publisherId: c.symbol,
  }));
  const energy = dataFile<EnergyCatalog>("energy/catalog.json")
    .filter((e) => e.frequency.startsWith("daily") && ENERGY_IDS[e.eia_series])
    .map((e): ShelfSeriesDef => ({
      id: ENERGY_IDS[e.eia_series]!,
      name: e.name,
      kind: "commodity",
      origin: "eia",
      file: `energy/${e.file}`,
      units: e.units,
      closeOnly: true,
      barsPerYear: 252,
      day: "the spot price of a trading day (EIA's daily series; no rows on holidays)",
      publisherId: e.eia_series,
    }));
  const fx = dataFile<ForexCatalog>("forex/catalog.json")
    .currencies.filter((c) => c.daily_file && c.daily_quote)
    .map((c): ShelfSeriesDef => {
      const usdPerUnit = c.daily_quote === "USD_per_unit";
      return {
        id: usdPerUnit ? `${c.currency}-USD` : `USD-${c.currency}`,
        name: usdPerUnit ? `US dollars per ${c.currency} (Fed H.10 noon buying rate)` : `${c.currency} per US dollar (Fed H.10 noon buying rate)`,
        kind: "fx",
        origin: "federal_reserve",
        file: `forex/${c.daily_file}`,
        units: usdPerUnit ? `USD per ${c.currency}` : `${c.currency} per USD`,
        closeOnly: true,
        barsPerYear: 252,
        day: "the noon buying rate in New York of a business day (no row on US holidays)",
        publisherId: c.fred_daily_id,
      };
    });
  const rates = dataFile<EconomyCatalog>("economy/catalog.json")
    .filter((e) => e.frequency.startsWith("Daily") && RATE_IDS[e.id])
    .map((e): ShelfSeriesDef => ({
      id: RATE_IDS[e.id]!,
      name: e.title,
      kind: "rate",
      origin: "federal_reserve",
      file: `economy/${e.file}`,
      units: e.units,
      closeOnly: true,
      barsPerYear: e.frequency.includes("7-Day") ? 365 : 252,
      day: e.frequency.includes("7-Day") ? "every calendar day (weekends carry the rate in force)" : "a business day (no row when no rate was published)",
      publisherId: e.id,
    }));
  return [...crypto, ...energy, ...fx, ...rates];
}

/** Every series of the namespace, in a fixed order (crypto, commodities, FX, rates). */
export function shelfSeriesDefs(): ShelfSeriesDef[] {
  return cached("shelf-series-defs", definitions);
}

function load(def: ShelfSeriesDef): ShelfSeries {
  const rows = csvRows(dataText(def.file));
  const points: ShelfPoint[] = [];
  for (const r of rows) {
    if (def.closeOnly) {
      const v = csvNumber(r.value);
      if (v !== null) points.push({ date: r.date!, open: null, high: null, low: null, close: v, volume: null });
      continue;
    }
    const n = (col: string) => csvNumber(r[col]);
    const [open, high, low, close] = [n("open"), n("high"), n("low"), n("close")];
    if (close !== null && open !== null && high !== null && low !== null) points.push({ date: r.date!, open, high, low, close, volume: n("volume") });
  }
  points.sort((a, b) => (a.date < b.date ? -1 : 1));
  const partialDays = def.kind === "crypto" ? (dataFile<CryptoCatalog>("crypto/catalog.json").find((c) => c.symbol === def.id)?.partial_days ?? []) : [];
  return { def, points, coverage: { first: points[0]?.date ?? "", last: points.at(-1)?.date ?? "" }, partialDays };
}

/** A series by id (exact, upper-case), or null when the shelf holds none by that name. */
export function shelfSeries(id: string): ShelfSeries | null {
  const def = shelfSeriesDefs().find((d) => d.id === id);
  return def ? cached(`shelf-series:${def.id}`, () => load(def)) : null;
}
