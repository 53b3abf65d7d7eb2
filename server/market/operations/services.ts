// The catalog's services: how operations are grouped for sale, in catalog order. One entry per service; an operation
// names its service by slug. A new service is one more entry here.
export const SERVICES = [
  { slug: "stock-quotes", title: "Stock quotes", description: "US stock and ETF price history (OHLCV bars), and options chain snapshots (live)." },
  { slug: "market-archive", title: "Market archive", description: "Point-in-time daily snapshots of live feeds, captured once per UTC day and never changed." },
  { slug: "us-macro-rates", title: "US macro rates", description: "US Treasury average interest rates on federal debt." },
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
] as const;

export type Service = (typeof SERVICES)[number];
export type ServiceSlug = Service["slug"];
