// The equity vs 24/7 perpetual basis screen, as a pure function of quotes and perp contexts.
//   basis_percent               = (perp_mark - equity_price) / equity_price x 100
//   basis_absolute              = perp_mark - equity_price
//   basis_vs_prev_close_percent = (perp_mark - equity_prev_close) / equity_prev_close x 100
//                                 (the overnight move the perp implies while the US market is shut)
//   perp_funding_apr_percent    = hourly funding x 24 x 365 x 100
// A row is `comparable` only with both an equity price and a perp mark; otherwise excluded_reason says why
// and direction is "unknown". Rows: comparable first, widest |basis_percent| first.
import type { z } from "zod";
import type { basisResponse, basisRow } from "./contract";
import type { EquityQuote, PerpContext } from "./perps";

export type BasisRow = z.infer<typeof basisRow>;
export type BasisResponse = z.infer<typeof basisResponse>;

/** Within +/- this many percent the perp is "flat" against the stock. */
export const FLAT_BAND_PERCENT = 0.05;

const r = (n: number, dp: number) => Math.round(n * 10 ** dp) / 10 ** dp;

export function basisRowFor(ctx: PerpContext, quote: EquityQuote | undefined): BasisRow {
  const price = quote?.price ?? null;
  const prev = quote?.prev_close ?? null;
  const mark = ctx.markPx;
  const excluded = price === null || !(price > 0) ? "no_equity_quote" : mark === null || !(mark > 0) ? "no_perp_mark" : null;
  const comparable = excluded === null;
  const basisPct = comparable ? ((mark! - price!) / price!) * 100 : null;
  return {
    ticker: ctx.name,
    equity_price: price,
    equity_prev_close: prev,
    equity_change_percent: price !== null && prev ? r(((price - prev) / prev) * 100, 4) : null,
    equity_as_of: quote?.as_of ?? null,
    perp_symbol: ctx.symbol,
    perp_mark: mark,
    perp_oracle: ctx.oraclePx,
    perp_open_interest: ctx.openInterest,
    perp_day_volume_usd: ctx.dayNtlVlm,
    perp_funding_apr_percent: ctx.funding === null ? null : r(ctx.funding * 24 * 365 * 100, 4),
    basis_percent: basisPct === null ? null : r(basisPct, 4),
    basis_absolute: comparable ? r(mark! - price!, 6) : null,
    basis_vs_prev_close_percent: mark !== null && mark > 0 && prev ? r(((mark - prev) / prev) * 100, 4) : null,
    direction: basisPct === null ? "unknown" : basisPct > FLAT_BAND_PERCENT ? "premium" : basisPct < -FLAT_BAND_PERCENT ? "discount" : "flat",
    comparable,
    excluded_reason: excluded,
  };
}

export function orderBasisRows(rows: BasisRow[]): BasisRow[] {
  return rows.slice().sort((a, b) => {
    if (a.comparable !== b.comparable) return a.comparable ? -1 : 1;
    const d = Math.abs(b.basis_percent ?? 0) - Math.abs(a.basis_percent ?? 0);
    return d !== 0 ? d : a.ticker < b.ticker ? -1 : a.ticker > b.ticker ? 1 : (a.perp_symbol ?? "") < (b.perp_symbol ?? "") ? -1 : 1;
  });
}

const pct = (n: number) => `${n >= 0 ? "+" : ""}${n.toFixed(2)}%`;

export function readBasis(rows: BasisRow[], marketOpen: boolean): string {
  const comparable = rows.filter((x) => x.comparable);
  if (rows.length === 0) return "No US stock perpetuals matched the filters.";
  const parts = [`${comparable.length} of ${rows.length} US stock perpetuals can be compared with the official price.`];
  if (comparable.length) {
    const w = comparable[0]!;
    parts.push(
      `Widest: ${w.ticker} (${w.perp_symbol}) trades at a ${Math.abs(w.basis_percent!).toFixed(2)}% ${w.direction === "flat" ? "gap" : w.direction} to the stock.`,
    );
    const prem = comparable.filter((x) => x.direction === "premium").length;
    const disc = comparable.filter((x) => x.direction === "discount").length;
    parts.push(`${prem} at a premium, ${disc} at a discount, ${comparable.length - prem - disc} flat (within ${FLAT_BAND_PERCENT}%).`);
  }
  const overnight = comparable.map((x) => x.basis_vs_prev_close_percent).filter((x): x is number => x !== null);
  if (!marketOpen && overnight.length) {
    const avg = overnight.reduce((s, x) => s + x, 0) / overnight.length;
    parts.push(`The US market is closed: perps imply an average move of ${pct(avg)} against the previous close.`);
  } else if (marketOpen) {
    parts.push("The US market is open: the official price is live (delayed), so the basis is mostly spread and funding.");
  }
  return parts.join(" ");
}

export const BASIS_METHOD =
  "basis_percent = (perp_mark - equity_price) / equity_price x 100; basis_vs_prev_close_percent = (perp_mark - equity_prev_close) / equity_prev_close x 100; " +
  `perp_funding_apr_percent = hourly funding x 24 x 365 x 100; direction flat within +/-${FLAT_BAND_PERCENT}%. ` +
  "Equity prices are delayed official prices; perp_open_interest is in contracts (shares) as the venue reports it; perp_day_volume_usd is 24h notional.";

export function buildSections(rows: BasisRow[]): { title: string; tickers: string[] }[] {
  const of = (f: (x: BasisRow) => boolean) => [...new Set(rows.filter(f).map((x) => x.ticker))];
  return [
    { title: "premium", tickers: of((x) => x.direction === "premium") },
    { title: "discount", tickers: of((x) => x.direction === "discount") },
    { title: "flat", tickers: of((x) => x.direction === "flat") },
    { title: "not_comparable", tickers: of((x) => !x.comparable) },
  ];
}
