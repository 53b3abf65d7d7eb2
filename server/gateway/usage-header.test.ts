import { describe, expect, it } from "vitest";
import type { CatalogMeter } from "../catalog/catalog";
import { parseUsageHeader } from "./usage-header";

const meter = (key: string, priceMicros: bigint | null): CatalogMeter => ({
  id: key,
  key,
  title: key,
  unit: "request",
  includedUnits: 0,
  priceMicros,
  priceId: null,
});
const meters = [meter("aggregates", 20_000n), meter("backtest", 500_000n), meter("unpriced", null)];

describe("parseUsageHeader", () => {
  it("defaults to one unit of the operation's meter", () => {
    expect(parseUsageHeader(null, meters, "aggregates")).toEqual({ type: "ok", units: new Map([["aggregates", 1]]) });
  });
  it("reads several meters", () => {
    expect(parseUsageHeader("aggregates=3, backtest=1", meters, "aggregates")).toEqual({
      type: "ok",
      units: new Map([
        ["aggregates", 3],
        ["backtest", 1],
      ]),
    });
  });
  it.each([
    "",
    "aggregates",
    "aggregates=",
    "aggregates=-1",
    "aggregates=0",
    "aggregates=1.5",
    "AGG=1",
    "aggregates=1;backtest=2",
    "aggregates=1, aggregates=2",
    "aggregates=9999999999",
  ])("refuses %j as invalid_usage_header", (v) => {
    expect(parseUsageHeader(v, meters, "aggregates")).toMatchObject({ type: "error", code: "invalid_usage_header" });
  });
  it("refuses unknown or unpriced meters as usage_not_priced", () => {
    expect(parseUsageHeader("unpriced=1", meters, "aggregates")).toMatchObject({ type: "error", code: "usage_not_priced" });
    expect(parseUsageHeader("nosuchmeter=1", meters, "aggregates")).toMatchObject({ type: "error", code: "usage_not_priced" });
  });
});
