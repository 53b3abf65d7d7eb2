// Funding history offline: the two recorded replies served as recorded (fidelity), the window rules, and exactly what
// is not held: another recorded perp is 403 funding_history_not_included, an unknown one 404; the coverage says so.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { embeddedProviders } from "../../providers/embedded";
import { perpFundingQuery, perpFundingResponse } from "./contract";
import { getPerpFunding } from "./get-perp-funding";
import { perpFunding } from "./index";

const deps = { providers: embeddedProviders(), now: () => new Date("2027-01-01T00:00:00Z") };
const q = (o: Record<string, string> = {}) => perpFundingQuery.parse(o);
const file = (f: string) =>
  JSON.parse(fs.readFileSync(path.join(process.cwd(), "data/crypto/perps", f), "utf8")) as { fundingRate: string; premium: string; time: number }[];

describe("recorded funding history", () => {
  it.each([
    ["xyz:TSLA", "fundingHistory-xyz-TSLA.json"],
    ["xyz:NVDA", "fundingHistory-xyz-NVDA.json"],
  ])("%s: every recorded hour, rate and premium as the reply has them", async (symbol, f) => {
    const rows = file(f);
    const a = perpFundingResponse.parse(await getPerpFunding(symbol, q(), deps));
    expect(a.rows.map((r) => [Date.parse(r.time), r.funding_rate, r.premium])).toEqual(rows.map((r) => [r.time, Number(r.fundingRate), Number(r.premium)]));
    expect(a).toMatchObject({ source: "hyperliquid", recorded: true, interval: "1h", coverage: { rows: rows.length } });
    expect(a.provenance).toContain("recorded");
  });

  it("windows by UTC day, annualises each rate, and dates the answer by its recording", async () => {
    const a = await getPerpFunding("xyz:TSLA", q({ start: "2026-09-26", end: "2026-09-26" }), deps);
    expect(a.count).toBe(24);
    expect(a.rows.every((r) => r.time.startsWith("2026-09-26"))).toBe(true);
    expect(a.rows.find((r) => r.funding_rate === 0.00000625)!.funding_apr_percent).toBe(5.475);
    expect(a.as_of).toBe("2026-09-30T14:46:00Z");
    // No time is known for the NVDA recording: its answer is dated by its last row.
    expect((await getPerpFunding("xyz:NVDA", q({ limit: "1" }), deps)).as_of).toBe("2026-08-27T23:00:00.056Z");
  });

  it("refuses what it does not hold: a recorded perp without history 403, an unknown one 404", async () => {
    const btc = await getPerpFunding("BTC", q(), deps).catch((e) => e);
    expect(btc).toMatchObject({ code: "not_included", status: 403, reason: "funding_history_not_included" });
    expect(btc.detail).toContain("xyz:TSLA");
    await expect(getPerpFunding("xyz:AAPL", q(), deps)).rejects.toMatchObject({ reason: "funding_history_not_included" });
    await expect(getPerpFunding("xyz:NOPE", q(), deps)).rejects.toMatchObject({ code: "unknown_ticker", status: 404 });
  });

  it("its coverage says exactly which histories are held, and the README the same", () => {
    const summary = perpFunding.coverage("embedded", { feeds: [] }).summary;
    const held = "xyz:TSLA 2026-09-25T20:00Z..2026-09-28T15:00Z (68 hourly rows) and xyz:NVDA 2026-08-26T00:00Z..2026-08-27T23:00Z (48 hourly rows)";
    expect(summary).toContain(`only for ${held}`);
    expect(fs.readFileSync(path.join(import.meta.dirname, "README.md"), "utf8")).toContain(held);
  });
});
