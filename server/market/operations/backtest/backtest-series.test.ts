// Research over every daily series the shelf holds: the history a backtest runs on is the file's (fidelity), a
// close-only series fills at the next close and never buys at a price <= 0, coins trade in fractions, and the answer's
// series block says all of it.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { embeddedProviders } from "../../providers/embedded";
import { shelfSeriesDefs } from "../../providers/shelf-daily-series";
import { shelfHistory } from "./backtest-series";
import { loadBacktestHistory } from "./load-backtest-history";
import { runBacktest, type BacktestBar } from "./run-backtest";

const SMA_1_2 = { kind: "sma_cross", fast: 1, slow: 2 } as const;
const now = new Date("2026-01-01T00:00:00Z");
const fileValues = (rel: string, col: string) => {
  const [head, ...lines] = fs
    .readFileSync(path.join(process.cwd(), "data", rel), "utf8")
    .trim()
    .split("\n");
  const i = head!.split(",").indexOf(col);
  return lines.map((l) => l.split(",")).filter((f) => f[i] !== "");
};

describe("the shelf's series by name", () => {
  it("holds every crypto, energy, FX and rate daily series, each with an id that no US ticker can be", () => {
    const ids = shelfSeriesDefs().map((d) => d.id);
    expect(ids).toEqual(
      expect.arrayContaining(["BTC-USD", "ETH-USD", "WTI-OIL", "BRENT-OIL", "HENRY-HUB", "EUR-USD", "GBP-USD", "USD-JPY", "UST-10Y", "UST-3M", "FED-FUNDS"]),
    );
    expect(ids).toHaveLength(2 + 3 + 7 + 6);
    for (const id of ids) expect(id).toMatch(/[-0-9]/);
  });

  it.each(shelfSeriesDefs().map((d) => [d.id, d.file, d.closeOnly] as const))(
    "%s: every dated value of %s, in order, nothing filled in",
    (id, file, closeOnly) => {
      const rows = fileValues(file, closeOnly ? "value" : "close");
      const h = shelfHistory(id)!;
      expect(h.bars.map((b) => b.date)).toEqual(rows.map((r) => r[0]));
      const col = closeOnly ? 1 : 4;
      expect(h.bars.map((b) => b.close)).toEqual(rows.map((r) => Number(r[col])));
      expect(h.bars.every((b) => (closeOnly ? b.open === null : typeof b.open === "number"))).toBe(true);
      expect(h.series.fills).toBe(closeOnly ? "next_close" : "next_open");
    },
  );

  it("a backtest's history for BTC-USD is the Coinbase file, annualised over 365 days, with its partial days noted", async () => {
    const h = await loadBacktestHistory("BTC-USD", { years: 2, spec: SMA_1_2, label: "x" }, embeddedProviders(), now);
    expect(h.window).toEqual({ years: 2, from: "2023-10-27", to: "2025-10-27" });
    expect(h.series).toMatchObject({ id: "BTC-USD", kind: "crypto", fills: "next_open", units_traded: "fractional", bars_per_year: 365 });
    expect(h.series.note).toContain("2017-02-28, 2018-08-10, 2025-10-25");
    expect(h.series.source).toMatch(/^coinbase /);
  });

  it("a ticker is still a ticker: AAPL comes from the shared bars source with its basis", async () => {
    const h = await loadBacktestHistory("AAPL", { years: 1, spec: SMA_1_2, label: "x" }, embeddedProviders(), now);
    expect(h.series).toMatchObject({ id: "AAPL", kind: "stock", fills: "next_open", units_traded: "whole", bars_per_year: 252 });
    expect(h.bars).toHaveLength(1260);
  });
});

describe("close-only fills (WTI-OIL around 2020-04-20, when it closed at -36.98)", () => {
  const wti = shelfHistory("WTI-OIL")!;
  const april = wti.bars.filter((b) => b.date >= "2020-04-08" && b.date <= "2020-04-24");

  it("fills every signal at the next close, in fractional units, and never buys at a price <= 0", () => {
    const r = runBacktest(april, "2020-04-08", SMA_1_2, 1000, { fill: "close", barsPerYear: 252, wholeUnits: false });
    const closeOn = new Map(april.map((b) => [b.date, b.close]));
    for (const t of r.trades) {
      expect(t.entry_price).toBe(closeOn.get(t.entry_date));
      if (t.exit_date) expect(t.exit_price).toBe(closeOn.get(t.exit_date));
      expect(t.entry_price).toBeGreaterThan(0);
    }
    // Buy-and-hold bought at the window's first close (2020-04-08) with all the capital.
    expect(r.buyHoldEquity[0]).toBeCloseTo(1000, 9);
  });

  it("a buy signal whose fill day is priced <= 0 buys nothing", () => {
    const bars: BacktestBar[] = [
      { date: "2020-04-16", open: null, close: 10 },
      { date: "2020-04-17", open: null, close: 9 },
      { date: "2020-04-18", open: null, close: 11 },
      { date: "2020-04-20", open: null, close: -36.98 },
    ];
    const r = runBacktest(bars, "2020-04-16", SMA_1_2, 100, { fill: "close", barsPerYear: 252, wholeUnits: false });
    expect(r.trades).toEqual([]);
    expect(r.strategyEquity.at(-1)).toBe(100);
  });
});
