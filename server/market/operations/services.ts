// The catalog's services: how operations are grouped for sale, in catalog order. One entry per service; an operation
// names its service by slug. A new service is one more entry here.
export const SERVICES = [
  { slug: "stock-quotes", title: "Stock quotes", description: "US stock and ETF price history (OHLCV bars), and options chain snapshots (live)." },
  { slug: "market-archive", title: "Market archive", description: "Point-in-time daily snapshots of live feeds, captured once per UTC day and never changed." },
  { slug: "us-macro-rates", title: "US macro rates", description: "US Treasury average interest rates on federal debt." },
  {
    slug: "us-economy",
    title: "US economic series",
    description:
      "FRED's series from the Federal Reserve, BLS, BEA and the Treasury (fed funds, Treasury yields, CPI, unemployment, payrolls, GDP, public debt), with point-in-time vintages.",
  },
  {
    slug: "screeners-scores-research",
    title: "Screeners, scores and research",
    description: "Strategy backtests with PNG reports, the S&P 500 screener and value scores, and the equity vs perpetual basis screener.",
  },
  {
    slug: "crypto-markets",
    title: "Crypto markets",
    description: "Bitcoin and ether daily bars (Coinbase), and perpetual futures funding, open interest and marks (Hyperliquid).",
  },
  {
    slug: "forex",
    title: "Forex",
    description: "Reference exchange rates against the US dollar (Federal Reserve H.10 daily, G.5 monthly) and cross rates computed from them.",
  },
  {
    slug: "energy-commodities",
    title: "Energy commodities",
    description: "EIA prices of crude oil (WTI, Brent), Henry Hub natural gas and US retail gasoline.",
  },
  { slug: "global-macro", title: "Global macro", description: "World Bank indicators by country and year: GDP, GDP growth, inflation, population." },
  {
    slug: "sec-filings",
    title: "SEC filings",
    description: "Companies' SEC EDGAR filings indexes and key XBRL facts (revenue, net income, EPS, shares outstanding).",
  },
  {
    slug: "congressional-trades",
    title: "Congressional trades",
    description: "Securities transactions members of the US Congress disclose under the STOCK Act.",
  },
  { slug: "market-sentiment", title: "Market sentiment", description: "The VIX (CBOE) and breadth measures computed from the prices the storefront holds." },
] as const;

export type Service = (typeof SERVICES)[number];
export type ServiceSlug = Service["slug"];
