import { describe, expect, it } from "vitest";
import { OPERATIONS } from "../market/operations";
import { parseQuery, parseWith } from "../validation";
import { MAX_PAID_TARGET } from "./paid-call";

// The longest value each parameter of a data operation's contract accepts: the 12 digits queryInt and queryNumber
// take (leading zeros included), the longest enum member, a 64-character feed or entity (an entity of colons, which
// URLSearchParams writes as %3A), free text at its maximum length in ASCII, a list at its most items. A parameter
// missing here fails the test: add its longest value.
const LONGEST: Record<string, string> = {
  ticker: "A.-.-.-.-.",
  feed: "a".repeat(64),
  entity: ":".repeat(64),
  multiplier: "000000050000",
  timespan: "quarter",
  from: "2024-01-02",
  to: "2024-12-31",
  date: "2024-01-02",
  adjusted: "disabled",
  sort: "desc",
  limit: "000000000366",
  strategy: "rsi_reversion",
  fast: "000000000200",
  slow: "000000000400",
  period: "000000000100",
  lower: "000000000098.999999999999",
  upper: "000000000098.999999999999",
  years: "000000000004.999999999999",
  capital: "000000009999.999999999999",
  min_basis: "000000000099.999999999999",
  // The shelf's operations.
  series_id: "A".repeat(40),
  start: "2024-01-02",
  end: "2024-12-31",
  as_of: "2024-01-02",
  q: "q".repeat(100),
  source: "federal_reserve",
  commodity: "natural-gas",
  frequency: "monthly",
  base: "USD",
  quote: "EUR",
  indicator: "NY.GDP.MKTP.KD.ZG",
  countries: Array.from({ length: 20 }, () => "USA").join(","),
  start_year: "000000002000",
  end_year: "000000002024",
  company: "0000320193",
  form: "10-K,10-Q,8-K,DEF 14A",
  amendments: "false",
  offset: "000000000000",
  metric: "shares_outstanding",
  member: "m".repeat(80),
  chamber: "senate",
  date_field: "transaction",
  type: "sale_partial",
  owner: "spouse",
  order: "desc",
  window: "000000000200",
  symbol: "xyz:ABCDEFGHIJKLMNO",
  symbols: "xyz:TSLA,BTC,ETH,xyz:NVDA,xyz:AAPL",
  kind: "equity",
  underlying: "BRK.B",
  contract_type: "call",
  expiration_date: "2024-01-19",
  expiration_from: "2024-01-02",
  expiration_to: "2024-12-31",
  strike_min: "000000000099.999999999999",
  strike_max: "000000000099.999999999999",
  search: "s".repeat(60),
  sub_industry: "s".repeat(100),
  peer_group: "sub_industry",
  min_score: "000000000099.999999999999",
  min_market_cap: "000000000099.999999999999",
  max_market_cap: "000000000099.999999999999",
  min_pe: "000000000099.999999999999",
  max_pe: "000000000099.999999999999",
  min_dividend_yield: "000000000099.999999999999",
  max_dividend_yield: "000000000099.999999999999",
  min_price: "000000000099.999999999999",
  max_price: "000000000099.999999999999",
  min_eps: "000000000099.999999999999",
  max_eps: "000000000099.999999999999",
  min_price_to_book: "000000000099.999999999999",
  max_price_to_book: "000000000099.999999999999",
  min_price_to_sales: "000000000099.999999999999",
  max_price_to_sales: "000000000099.999999999999",
};

// Where two operations' parameters share a name but not a bound (their own enums and page sizes).
const LONGEST_OF: Record<string, Record<string, string>> = {
  congress_trades: { sort: "transaction_date", limit: "000000000500" },
  crypto_bars: { symbol: "ABCDEFGHIJ-USDC" },
  options_chain: { sort: "expiration_date", limit: "000000000250" },
  perps: { sort: "funding_rate_hourly", limit: "000000000100" },
  screener: { sort: "price_to_sales", limit: "000000000100", min_dividend_yield: "000000000000.999999999999", max_dividend_yield: "000000000000.999999999999" },
  sec_filings: { limit: "000000000200" },
  sec_key_facts: { period: "quarterly" },
  value_score: { limit: "000000000100" },
};

/** Path and query of the operation's longest valid request, as a client writes it (path values as they are, query as URLSearchParams). */
function longestTarget(key: string): string {
  const c = OPERATIONS.find((o) => o.key === key)!.contract;
  const pathParams: Record<string, string> = {};
  for (const name of Object.keys(c.pathParams?.shape ?? {})) pathParams[name] = LONGEST_OF[key]?.[name] ?? LONGEST[name] ?? fail(key, name);
  const query = new URLSearchParams();
  for (const name of Object.keys(c.query?.shape ?? {})) query.set(name, LONGEST_OF[key]?.[name] ?? LONGEST[name] ?? fail(key, name));
  // Each value is one the contract takes: the bound below is about valid requests, not ones refused with a 400.
  if (c.pathParams) parseWith(c.pathParams, pathParams);
  if (c.query) parseQuery(c.query, query);
  const path = c.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(pathParams[name]!));
  return `${path}${query.size ? `?${query}` : ""}`;
}

function fail(key: string, name: string): never {
  throw new Error(`${key}: no longest value for parameter ${name}`);
}

describe("MAX_PAID_TARGET", () => {
  const keys = OPERATIONS.map((o) => o.key);

  it("covers every data operation of the registry (each is priced under /api/v1)", () => {
    expect(OPERATIONS.filter((o) => !o.contract.path.startsWith("/api/v1/")).map((o) => o.key)).toEqual([]);
    expect(keys.length).toBeGreaterThan(7);
  });

  it.each(keys)("%s: its longest valid request fits", (key) => {
    const target = longestTarget(key);
    expect(target.length).toBeLessThanOrEqual(MAX_PAID_TARGET);
  });
});
