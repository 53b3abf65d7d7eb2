// The forex live source against the Fed's Data Download Program CSV as recorded (data/recorded/fed-h10/: the
// Program's header rows, filled with the shipped H.10 values), replayed by a local HTTP server: the columns it finds
// by identifier, the directions it checks, ND days left out, and every failure mapped to a 502.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { liveConfig } from "../../test/live-kit";
import { refusalOf } from "../../test/refusals";
import { recorded, startRouteReplay, type RouteReplay } from "../../test/route-replay";
import { forexRatesResponse, type Currency } from "./contract";
import { DEFAULT_H10_PACKAGE, liveForex } from "./forex-source";
import { getForexRates } from "./get-forex-rates";

const CSV = recorded("recorded/fed-h10/FRB_H10-EUR-JPY-daily.csv");
const NOW = new Date("2026-11-27T12:00:00Z");

let replay: RouteReplay;
beforeAll(async () => {
  replay = await startRouteReplay(
    ({ url: u }) =>
      u.pathname === "/datadownload/Output.aspx" && u.searchParams.get("rel") === "H10" ? { status: 200, body: CSV } : { status: 404, body: "" },
    "text/csv",
  );
});
afterAll(() => replay.close());
beforeEach(() => replay.reset());
const seen = () => replay.seen.map((s) => s.url);

const source = (settings: Record<string, string> = {}) => liveForex(liveConfig({ FED_H10_BASE_URL: replay.base, ...settings }), () => NOW);
const ask = (
  base_: Currency,
  quote: Currency,
  extra: { frequency?: "daily" | "monthly"; start?: string; end?: string } = {},
  settings?: Record<string, string>,
) => getForexRates({ base: base_, quote, start: "2025-09-15", end: "2025-09-26", limit: 1000, ...extra }, source(settings), NOW);
const refusal = (p: Promise<unknown>) => refusalOf(p, ["status", "code", "reason"]);
const fileRows = (id: string) =>
  fs
    .readFileSync(path.join(process.cwd(), `data/forex/daily/${id}.csv`), "utf8")
    .trim()
    .split("\n")
    .map((l) => l.split(","))
    .filter(([d]) => d! >= "2025-09-15" && d! <= "2025-09-26");

describe("the Fed's H.10 download, replayed", () => {
  it("EUR/USD: the RXI$US_N.B.EU column (USD per EUR), equal to the committed DEXUSEU rows", async () => {
    const res = await ask("EUR", "USD");
    expect(forexRatesResponse.parse(res)).toBeTruthy();
    expect(res.rates).toEqual(fileRows("DEXUSEU").map(([date, v]) => ({ date, rate: Number(v) })));
    expect(res).toMatchObject({
      computed: false,
      as_of: NOW.toISOString(),
      legs: [{ currency: "EUR", series: "RXI$US_N.B.EU", published_quote: "USD per EUR" }],
    });
    const q = seen()[0]!.searchParams;
    expect(Object.fromEntries(["rel", "series", "from", "to", "filetype", "label", "layout"].map((k) => [k, q.get(k)]))).toEqual({
      rel: "H10",
      series: DEFAULT_H10_PACKAGE,
      from: "09/15/2025",
      to: "09/26/2025",
      filetype: "csv",
      label: "include",
      layout: "seriescolumn",
    });
  });

  it("a cross rate reads both columns of one download; the package is a setting", async () => {
    const res = await ask("EUR", "JPY", {}, { FED_H10_PACKAGE: "pkg123" });
    expect(seen()).toHaveLength(1);
    expect(seen()[0]!.searchParams.get("series")).toBe("pkg123");
    expect(res.rates[0]).toEqual({ date: "2025-09-15", rate: 173.366244 });
    expect(res.count).toBe(10);
  });

  it("an ND day is no row, listed in missing_dates", async () => {
    replay.answer = () => ({ status: 200, body: CSV.replace("2025-09-17,1.1845,146.3600", "2025-09-17,1.1845,ND") });
    const res = await ask("EUR", "JPY");
    expect(res.rates.map((r) => r.date)).not.toContain("2025-09-17");
    expect(res.missing_dates).toEqual({ count: 1, dates: ["2025-09-17"] });
  });

  it("maps a download without the series, a header that disagrees with it, an HTML page and a server error to 502", async () => {
    expect(await refusal(ask("USD", "CNY"))).toEqual({ status: 502, code: "upstream_unavailable", reason: "invalid_response" });
    replay.answer = () => ({ status: 200, body: CSV.replace('"Currency:","USD","JPY"', '"Currency:","EUR","JPY"') });
    expect(await refusal(ask("EUR", "USD"))).toEqual({ status: 502, code: "upstream_unavailable", reason: "invalid_response" });
    replay.answer = () => ({ status: 200, body: "<html><body>Service unavailable</body></html>", type: "text/html" });
    expect(await refusal(ask("EUR", "USD"))).toEqual({ status: 502, code: "upstream_unavailable", reason: "invalid_response" });
    replay.answer = () => ({ status: 503, body: "" });
    expect(await refusal(ask("EUR", "USD"))).toMatchObject({ status: 502, code: "upstream_unavailable" });
  });

  it("monthly averages come from the committed G.5 file, and the answer says so", async () => {
    const res = await ask("USD", "CHF", { frequency: "monthly", start: "2025-01-01", end: "2025-03-31" });
    expect(seen()).toHaveLength(0);
    expect(res.count).toBe(3);
    expect(res.notes).toContain("Monthly averages come from the committed G.5 file (to its last month), not fetched live.");
  });
});
