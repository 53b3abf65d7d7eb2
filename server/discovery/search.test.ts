import { describe, expect, it } from "vitest";
import { rankDocuments, tokenize } from "./search";

const docs = [
  {
    id: "aggregates",
    fields: [
      { text: "/api/v1/aggregates/{ticker} OHLCV price bars for a US-listed ticker", weight: 3 },
      { text: "stock price history", weight: 1 },
    ],
  },
  {
    id: "rates",
    fields: [
      { text: "/api/v1/avg-interest-rates Average interest rates on US Treasury debt", weight: 3 },
      { text: "treasury interest macro", weight: 1 },
    ],
  },
  {
    id: "backtest",
    fields: [
      { text: "/api/v1/backtest/{ticker} Strategy backtest with a PNG report", weight: 3 },
      { text: "sma rsi interest in strategies", weight: 1 },
    ],
  },
];

describe("search", () => {
  it("tokenizes with light stemming", () => {
    expect(tokenize("Average Interest RATES, treasuries!")).toEqual(["average", "interest", "rate", "treasury"]);
  });

  it("keeps a hyphenated term as one token too, so it outranks its parts found apart", () => {
    expect(tokenize("the 10-year yield")).toEqual(["10", "year", "yield", "10year"]);
    const ranked = rankDocuments("10-year", [
      { id: "apart", fields: [{ text: "10-K filings by fiscal year", weight: 1 }] },
      { id: "together", fields: [{ text: "the 10-year Treasury yield", weight: 1 }] },
    ]);
    expect(ranked.map((r) => r.id)).toEqual(["together", "apart"]);
  });
  it("ranks the operation matching every term first", () => {
    const r = rankDocuments("treasury interest", docs);
    expect(r[0]!.id).toBe("rates");
    expect(r.map((x) => x.id)).toContain("backtest"); // matches "interest" only, ranked after
    expect(r.findIndex((x) => x.id === "backtest")).toBeGreaterThan(0);
  });
  it("returns nothing for no match and for stop words only", () => {
    expect(rankDocuments("zzzz", docs)).toEqual([]);
    expect(rankDocuments("the of and", docs)).toEqual([]);
  });
  it("matches prefixes of four letters or more", () => {
    expect(rankDocuments("treas", docs)[0]!.id).toBe("rates");
  });
});
