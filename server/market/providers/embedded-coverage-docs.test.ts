// The coverage the docs state is the files' own: first and last day and session count of each embedded series,
// and the Treasury record dates and rows per date, in data/market/README.md and README.md. A data update that forgets the docs fails here.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { basisLabel, embeddedDailySeries, embeddedSeriesInfo } from "./embedded-daily-series";

const read = (rel: string) => fs.readFileSync(path.join(process.cwd(), rel), "utf8");

describe("documented embedded coverage", () => {
  const dataReadme = read("data/market/README.md");
  const readme = read("README.md");

  it.each(embeddedSeriesInfo().map((s) => [s.ticker] as const))("%s: first and last day and session count", (ticker) => {
    const bars = embeddedDailySeries(ticker, true)!;
    const first = bars[0]!.date;
    const last = bars[bars.length - 1]!.date;
    const row = dataReadme.split("\n").find((l) => l.startsWith(`| ${ticker} `));
    expect(row).toContain(`| ${first} .. ${last}, ${bars.length.toLocaleString("en-US")} sessions |`);
    expect(readme).toMatch(new RegExp(`${first}\\.\\.${last} \\(${bars.length.toLocaleString("en-US")} sessions[,)]`));
  });

  it.each(embeddedSeriesInfo().map((s) => [s.ticker, s.basis] as const))("%s: its adjustment basis", (ticker, basis) => {
    const row = dataReadme.split("\n").find((l) => l.startsWith(`| ${ticker} `));
    expect(row).toContain(`(${basisLabel(basis)})`);
  });

  it("Treasury: the record dates and rows per date", () => {
    const doc = JSON.parse(read("data/market/treasury/avg-interest-rates.json")) as { data: { record_date: string }[] };
    const perDate = new Map<string, number>();
    for (const r of doc.data) perDate.set(r.record_date, (perDate.get(r.record_date) ?? 0) + 1);
    const dates = [...perDate.keys()].sort();
    const rows = new Set(perDate.values());
    expect(rows.size).toBe(1);
    expect(dataReadme).toContain(`record dates ${dates.join(", ")} (${[...rows][0]} rows each)`);
    expect(readme).toContain(`record dates ${dates[0]}..${dates[dates.length - 1]} (${[...rows][0]} rows each`);
  });
});
