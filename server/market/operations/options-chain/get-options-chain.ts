// One options chain answer: Massive's snapshot page mapped to the contract (nanosecond times as ISO 8601, absent
// numbers as null; nothing computed).
import type { z } from "zod";
import { invalidParameter } from "../../../errors";
import type { MarketProviders } from "../../providers/types";
import type { optionsChainQuery, optionsChainResponse } from "./contract";
import { optionsChainSource, type MassiveOptionSnapshot } from "./massive-options";

type Query = z.output<typeof optionsChainQuery>;
export type OptionsChainResponse = z.output<typeof optionsChainResponse>;

const n = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : null);
// Massive stamps in nanoseconds since the epoch; a double keeps them to well under a millisecond.
const nsIso = (v: unknown) => (typeof v === "number" && Number.isFinite(v) && v > 0 ? new Date(Math.round(v / 1e6)).toISOString() : null);
const s = (v: unknown) => (typeof v === "string" ? v : null);

function contractOf(r: MassiveOptionSnapshot): OptionsChainResponse["contracts"][number] {
  const d = r.details ?? {};
  return {
    contract: d.ticker ?? "",
    contract_type: s(d.contract_type),
    exercise_style: s(d.exercise_style),
    expiration_date: s(d.expiration_date),
    strike_price: n(d.strike_price),
    shares_per_contract: n(d.shares_per_contract),
    break_even_price: n(r.break_even_price),
    implied_volatility: n(r.implied_volatility),
    open_interest: n(r.open_interest),
    fair_market_value: n(r.fmv),
    greeks: r.greeks ? { delta: n(r.greeks.delta), gamma: n(r.greeks.gamma), theta: n(r.greeks.theta), vega: n(r.greeks.vega) } : null,
    day: r.day
      ? {
          ...{ open: n(r.day.open), high: n(r.day.high), low: n(r.day.low), close: n(r.day.close), volume: n(r.day.volume), vwap: n(r.day.vwap) },
          ...{
            change: n(r.day.change),
            change_percent: n(r.day.change_percent),
            previous_close: n(r.day.previous_close),
            last_updated: nsIso(r.day.last_updated),
          },
        }
      : null,
    last_quote: r.last_quote
      ? {
          ...{ bid: n(r.last_quote.bid), ask: n(r.last_quote.ask), bid_size: n(r.last_quote.bid_size), ask_size: n(r.last_quote.ask_size) },
          ...{ midpoint: n(r.last_quote.midpoint), last_updated: nsIso(r.last_quote.last_updated), timeframe: s(r.last_quote.timeframe) },
        }
      : null,
    last_trade: r.last_trade
      ? {
          ...{ price: n(r.last_trade.price), size: n(r.last_trade.size), exchange: n(r.last_trade.exchange) },
          ...{ sip_timestamp: nsIso(r.last_trade.sip_timestamp), timeframe: s(r.last_trade.timeframe) },
        }
      : null,
  };
}

export async function getOptionsChain(underlying: string, q: Query, deps: { providers: MarketProviders; now: () => Date }): Promise<OptionsChainResponse> {
  if (q.expiration_from && q.expiration_to && q.expiration_from > q.expiration_to)
    throw invalidParameter("expiration_from", `expiration_from (${q.expiration_from}) must not be after expiration_to (${q.expiration_to})`);
  if (q.strike_min !== undefined && q.strike_max !== undefined && q.strike_min > q.strike_max)
    throw invalidParameter("strike_min", `strike_min (${q.strike_min}) must not be above strike_max (${q.strike_max})`);
  const page = await deps.providers.family(optionsChainSource).chain(underlying, q);
  const results = (page.results ?? []).slice(0, q.limit);
  const u = results[0]?.underlying_asset;
  return {
    source: "massive",
    as_of: deps.now().toISOString(),
    ticker: underlying,
    underlying: u ? { price: n(u.price), last_updated: nsIso(u.last_updated), timeframe: s(u.timeframe) } : null,
    count: results.length,
    has_more: typeof page.next_url === "string" && page.next_url !== "",
    contracts: results.map(contractOf),
    note:
      results.length === 0
        ? "No contract matched: the underlying lists none with these filters (or Massive does not know it)."
        : "Live snapshot from Massive (formerly Polygon.io). Quote and trade timeframes say whether the plan gives real-time or delayed data.",
  };
}
