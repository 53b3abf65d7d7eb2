// A backtest over shelf series end to end (history, engine, the PNG stored as an artifact, the answer): the close-only
// crude oil series fills at the next close and says so, bitcoin trades fractional coins, and both answers pass the contract.
import { describe, expect, it } from "vitest";
import { embeddedProviders } from "../../providers/embedded";
import { backtestQuery, backtestResponse } from "./contract";
import { BACKTEST_DISCLAIMER, createBacktest } from "./create-backtest";

const deps = { origin: "http://backtest-series.test", providers: embeddedProviders(), now: () => new Date("2026-01-01T00:00:00Z") };

describe("createBacktest over the shelf's series", () => {
  it("WTI-OIL (closes only): fills at the next close, in fractional units, with the series and a disclaimer saying so", async () => {
    const b = backtestResponse.parse(await createBacktest("WTI-OIL", backtestQuery.parse({ fast: "20", slow: "50", years: "2" }), deps));
    expect(b.data.series).toMatchObject({ id: "WTI-OIL", kind: "commodity", fills: "next_close", units_traded: "fractional", bars_per_year: 252 });
    expect(b.data.series.source).toMatch(/^eia \(RWTC;/);
    expect(b.data.series.note).toContain("filled at the next close");
    expect(b.disclaimer).toContain("fills at the next close");
    expect(b.data.window).toEqual({ years: 2, from: "2024-08-18", to: "2026-08-18" });
    expect(b.artifact.url).toMatch(/^http:\/\/backtest-series\.test\/artifacts\/art_/);
  });

  it("BTC-USD: coins in fractions, so a small capital still trades; annualised over 365 days", async () => {
    const b = backtestResponse.parse(await createBacktest("BTC-USD", backtestQuery.parse({ strategy: "rsi_reversion", years: "3", capital: "1000" }), deps));
    expect(b.data.series).toMatchObject({ kind: "crypto", fills: "next_open", units_traded: "fractional", bars_per_year: 365 });
    expect(b.data.buy_hold.exposure_percent).toBe(100);
    expect(b.disclaimer).toContain("fractional units");
  });

  it("a ticker keeps the stock disclaimer and whole shares", async () => {
    const b = await createBacktest("MSFT", backtestQuery.parse({ years: "1" }), deps);
    expect(b.disclaimer).toBe(BACKTEST_DISCLAIMER);
    expect(b.data.series).toMatchObject({ id: "MSFT", kind: "stock", units_traded: "whole" });
    expect(b.data.series.note).toContain("Dividend-adjusted");
  });
});
