// The data operations: one line per operation, sorted by key. Adding an operation is its folder plus its line here;
// everything that lists operations derives from this list (./index.ts).
export { aggregates } from "./aggregates";
export { archiveCatalog } from "./archive-catalog";
export { archiveDay } from "./archive-day";
export { archiveRange } from "./archive-range";
export { avgInterestRates } from "./avg-interest-rates";
export { backtest } from "./backtest";
export { basis } from "./basis";
export { cryptoBars } from "./crypto-bars";
export { optionsChain } from "./options-chain";
export { perpFunding } from "./perp-funding";
export { perps } from "./perps";
export { screener } from "./screener";
export { valueScore } from "./value-score";
