// The value score's method, case by case (percentiles with ties, missing and negative inputs, small peer groups, the
// mean and the ranks), and over the held file: the inputs shown are the file's, the score is the method's.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { Sp500Member } from "../../providers/sp500-constituents";
import { valueScoreQuery, valueScoreResponse } from "./contract";
import { getValueScores } from "./index";
import { MIN_SUB_INDUSTRY_PEERS, percentile, rankKey, scoreValue, VALUE_SCORE_METHOD } from "./score-value";

const member = (symbol: string, o: Partial<Sp500Member>, sub = "Banks"): Sp500Member => ({
  symbol,
  name: symbol,
  gics_sub_industry: sub,
  price: 10,
  pe_trailing: null,
  dividend_yield: null,
  eps_trailing: null,
  week52_low: null,
  week52_high: null,
  market_cap: null,
  ebitda: null,
  price_to_sales: null,
  price_to_book: null,
  ...o,
});

describe("percentile ranks", () => {
  it("best 100, worst 0, ties share the average, a lone value has none", () => {
    expect([1, 2, 3, 4, 5].map((k) => percentile(k, [1, 2, 3, 4, 5]))).toEqual([0, 25, 50, 75, 100]);
    // Two tied at 2: each has 1 below and 1 other tied -> (1 + 0.5) / 3.
    expect(percentile(2, [1, 2, 2, 3])).toBe(50);
    expect(percentile(7, [7])).toBeNull();
  });

  it("orders each input so that higher is cheaper, losses and negative book as the most expensive, no dividend as the lowest", () => {
    expect(rankKey(member("A", { pe_trailing: 10 }), "pe")! > rankKey(member("B", { pe_trailing: 20 }), "pe")!).toBe(true);
    expect(rankKey(member("L", { eps_trailing: -1 }), "pe")).toBe(Number.NEGATIVE_INFINITY);
    expect(rankKey(member("N", {}), "pe")).toBeNull();
    expect(rankKey(member("P", { eps_trailing: 2 }), "pe")).toBeNull();
    expect(rankKey(member("K", { price_to_book: -3 }), "price_to_book")).toBe(Number.NEGATIVE_INFINITY);
    expect(rankKey(member("D", { dividend_yield: null }), "dividend_yield")).toBe(Number.NEGATIVE_INFINITY);
    expect(rankKey(member("E", { dividend_yield: 0.03 }), "dividend_yield")).toBe(0.03);
  });
});

describe("scoreValue", () => {
  const five = [
    member("A", { pe_trailing: 10, price_to_book: 1, dividend_yield: 0.05 }),
    member("B", { pe_trailing: 20, price_to_book: 2, dividend_yield: 0.04 }),
    member("C", { pe_trailing: 30, price_to_book: 3, dividend_yield: 0.03 }),
    member("D", { eps_trailing: -1, price_to_book: -1 }),
    member("E", { pe_trailing: 20, price_to_book: 2, dividend_yield: 0.04 }),
    member("X", { price: null }),
  ];

  it("averages the ranks it can take, ranks ties together, and says why a member is unscored", () => {
    const rows = scoreValue(five, "index");
    const by = new Map(rows.map((r) => [r.symbol, r]));
    // P/E keys: A 10, B/E 20 (tied), C 30, D a loss -> percentiles A 100, B/E 62.5, C 25, D 0.
    expect(by.get("A")!.components).toEqual({ pe: 100, price_to_book: 100, dividend_yield: 100 });
    expect(by.get("B")!.components).toEqual({ pe: 62.5, price_to_book: 62.5, dividend_yield: 62.5 });
    expect(by.get("D")!).toMatchObject({ components: { pe: 0, price_to_book: 0, dividend_yield: 0 }, value_score: 0 });
    expect([by.get("A")!.rank, by.get("B")!.rank, by.get("E")!.rank, by.get("C")!.rank, by.get("D")!.rank]).toEqual([1, 2, 2, 4, 5]);
    expect(by.get("X")).toMatchObject({ value_score: null, rank: null, excluded_reason: "no_figures" });
    expect(by.get("A")!.peers).toEqual({ pe: 5, price_to_book: 5, dividend_yield: 5 });
  });

  it("needs two inputs, and a sub-industry of at least 5 usable peers", () => {
    const one = scoreValue([...five, member("F", { eps_trailing: 3 })], "index").find((r) => r.symbol === "F")!;
    // No P/E (positive EPS) and no price to book: only the dividend rank.
    expect(one).toMatchObject({ value_score: null, excluded_reason: "too_few_inputs" });
    const small = scoreValue([member("S1", { pe_trailing: 5, price_to_book: 1 }, "Tiny"), ...five], "sub_industry").find((r) => r.symbol === "S1")!;
    expect(MIN_SUB_INDUSTRY_PEERS).toBe(5);
    expect(small).toMatchObject({ value_score: null, excluded_reason: "peer_group_too_small" });
  });
});

describe("over the held S&P 500 run", () => {
  it("shows the file's inputs and writes the method in the answer", () => {
    const a = valueScoreResponse.parse(getValueScores(valueScoreQuery.parse({ search: "JPM" })));
    expect(a).toMatchObject({ source: "yahoo_finance", as_of: "2026-08-22T00:34:37Z", method: VALUE_SCORE_METHOD, computed: true, peer_group: "index" });
    const line = fs
      .readFileSync(path.join(process.cwd(), "data/screeners/sp500-constituents.csv"), "utf8")
      .split("\n")
      .find((l) => l.startsWith("JPM,"))!
      .split(",");
    const [pe, dy, eps] = [Number(line[4]), Number(line[5]), Number(line[6])];
    const jpm = a.rows.find((r) => r.symbol === "JPM")!;
    expect(jpm.inputs).toMatchObject({ pe_trailing: pe, dividend_yield: dy, eps_trailing: eps, price_to_book: Number(line[12]) });
    const all = getValueScores(valueScoreQuery.parse({ limit: "100" }));
    expect(all.scored).toBeGreaterThan(450);
    expect(jpm.value_score).toBeGreaterThanOrEqual(0);
    expect(jpm.value_score).toBeLessThanOrEqual(100);
  });

  it("orders cheapest first, unscored last, and filters by minimum score", () => {
    const top = getValueScores(valueScoreQuery.parse({ min_score: "80", limit: "100" }));
    const scores = top.rows.map((r) => r.value_score!);
    expect(scores.every((s) => s >= 80)).toBe(true);
    expect(scores).toEqual([...scores].sort((x, y) => y - x));
    const asc = getValueScores(valueScoreQuery.parse({ order: "asc", limit: "100", offset: "500" }));
    expect(asc.rows.every((r) => r.value_score === null)).toBe(true);
  });

  it("the README states the method's rules", () => {
    const readme = fs.readFileSync(path.join(import.meta.dirname, "README.md"), "utf8");
    for (const rule of ["percentile", "ties", "+infinity", "non-payer", "at least 5", "at least 2 of the 3"]) expect(readme).toContain(rule);
  });
});
