// Crypto bars offline: the Coinbase files served whole and unchanged (fidelity), partial days flagged and missing days
// listed as catalog.json and the file say, the window rules, and what is not held; the README states the files' coverage.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { embeddedProviders } from "../../providers/embedded";
import { cryptoBarsQuery, cryptoBarsResponse } from "./contract";
import { getCryptoBars } from "./get-crypto-bars";

const deps = { providers: embeddedProviders(), now: () => new Date("2026-01-01T00:00:00Z") };
const q = (o: Record<string, string> = {}) => cryptoBarsQuery.parse(o);
const file = (symbol: string) =>
  fs
    .readFileSync(path.join(process.cwd(), `data/crypto/daily/${symbol}.csv`), "utf8")
    .trim()
    .split("\n")
    .slice(1)
    .map((l) => l.split(","));

describe("crypto bars fidelity", () => {
  it.each(["BTC-USD", "ETH-USD"])("%s: every row of the file, values unchanged, in two pages", async (symbol) => {
    const rows = file(symbol);
    const first = await getCryptoBars(symbol, q({ start: rows[0]![0]!, limit: "2000" }), deps);
    const rest = await getCryptoBars(symbol, q({ start: first.next_start!, end: rows.at(-1)![0]!, limit: "5000" }), deps);
    expect(first.truncated).toBe(true);
    const served = [...first.bars, ...rest.bars].map((b) => [b.date, b.open, b.high, b.low, b.close, b.volume].join(","));
    expect(served).toEqual(rows.map(([d, ...v]) => [d, ...v.map(Number)].join(",")));
    expect(rest.next_start).toBeNull();
    expect(cryptoBarsResponse.parse(rest)).toBeTruthy();
  });

  it("BTC-USD: the partial days of catalog.json are flagged, with their candle counts", async () => {
    const a = await getCryptoBars("BTC-USD", q({ start: "2017-02-27", end: "2017-03-01" }), deps);
    expect(a.bars.map((b) => [b.date, b.partial])).toEqual([
      ["2017-02-27", false],
      ["2017-02-28", true],
      ["2017-03-01", false],
    ]);
    expect(a.partial_days).toEqual([expect.objectContaining({ date: "2017-02-28", candles: 5 })]);
    expect(a.provenance).toContain("4 hours");
    expect(a.provenance).toContain("118 days");
  });

  it("ETH-USD: 2016-05-21 and 05-22 are not in the source, listed as missing, not filled", async () => {
    const a = await getCryptoBars("ETH-USD", q({ start: "2016-05-18", end: "2016-05-25" }), deps);
    expect(a.bars.map((b) => b.date)).toEqual(["2016-05-18", "2016-05-19", "2016-05-20", "2016-05-23", "2016-05-24", "2016-05-25"]);
    expect(a.missing_days).toEqual(["2016-05-21", "2016-05-22"]);
  });
});

describe("crypto bars windows and refusals", () => {
  it("without dates: the latest `limit` days held, dated by the end of the last one", async () => {
    const a = await getCryptoBars("BTC", q({ limit: "3" }), deps);
    expect(a.symbol).toBe("BTC-USD");
    expect(a.bars.map((b) => b.date)).toEqual(["2025-10-25", "2025-10-26", "2025-10-27"]);
    expect(a.as_of).toBe("2025-10-28T00:00:00.000Z");
    expect(a).toMatchObject({ source: "coinbase", venue: "Coinbase Exchange", coverage: { first_date: "2016-05-19", last_date: "2025-10-27" } });
    expect(a.units.volume).toContain("BTC");
  });

  it("end only: the last `limit` days up to it", async () => {
    const a = await getCryptoBars("BTC-USD", q({ end: "2023-10-11", limit: "5" }), deps);
    expect(a.bars.map((b) => [b.date, b.close])).toEqual([
      ["2023-10-07", 27976.43],
      ["2023-10-08", 27933.55],
      ["2023-10-09", 27596.67],
      ["2023-10-10", 27393.29],
      ["2023-10-11", 26869.19],
    ]);
  });

  it("answers what it does not hold as a vendor does", async () => {
    await expect(getCryptoBars("SOL-USD", q(), deps)).rejects.toMatchObject({ code: "unknown_ticker", status: 404 });
    await expect(getCryptoBars("BTC-USD", q({ start: "2012-01-01", end: "2012-12-31" }), deps)).rejects.toMatchObject({
      code: "not_included",
      reason: "timeframe_not_included",
    });
    await expect(getCryptoBars("BTC-USD", q({ start: "2024-02-01", end: "2024-01-01" }), deps)).rejects.toMatchObject({
      code: "invalid_request",
      extra: { parameter: "start" },
    });
  });
});

describe("README", () => {
  it("states each file's first and last day and row count", () => {
    const readme = fs.readFileSync(path.join(import.meta.dirname, "README.md"), "utf8");
    for (const symbol of ["BTC-USD", "ETH-USD"]) {
      const rows = file(symbol);
      expect(readme).toContain(`${symbol} ${rows[0]![0]}..${rows.at(-1)![0]} (${rows.length.toLocaleString("en-US")} days)`);
    }
  });
});
