// The catalog's services: how operations are grouped for sale, in catalog order. One entry per service; an operation
// names its service by slug. A new service is one more entry here.
export const SERVICES = [
  { slug: "stock-quotes", title: "Stock quotes", description: "US stock and ETF price history (OHLCV bars)." },
  { slug: "market-archive", title: "Market archive", description: "Point-in-time daily snapshots of live feeds, captured once per UTC day and never changed." },
  { slug: "us-macro-rates", title: "US macro rates", description: "US Treasury average interest rates on federal debt." },
  {
    slug: "screeners-scores-research",
    title: "Screeners, scores and research",
    description: "Strategy backtests with PNG reports, and the equity vs perpetual basis screener.",
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
] as const;

export type Service = (typeof SERVICES)[number];
export type ServiceSlug = Service["slug"];
