// The data operations: one line per operation, sorted by key. Adding an operation is its folder plus its line here;
// everything that lists operations derives from this list (./index.ts).
export { aggregates } from "./aggregates";
export { archiveCatalog } from "./archive-catalog";
export { archiveDay } from "./archive-day";
export { archiveRange } from "./archive-range";
export { avgInterestRates } from "./avg-interest-rates";
export { backtest } from "./backtest";
export { basis } from "./basis";
export { congressTrades } from "./congress-trades";
export { economySeries } from "./economy-series";
export { economySeriesList } from "./economy-series-list";
export { energyPrices } from "./energy-prices";
export { forexRates } from "./forex-rates";
export { secFilings } from "./sec-filings";
export { secKeyFacts } from "./sec-key-facts";
export { sectorBreadth } from "./sector-breadth";
export { vix } from "./vix";
export { worldBankIndicators } from "./world-bank-indicators";
