// The average interest rates operation over both kinds of its source (treasury-rates.ts): the committed Fiscal Data
// answer offline, and Fiscal Data live, replayed from the same committed answer by a local HTTP server.
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { embeddedProviders } from "../../providers/embedded";
import { liveProviders } from "../../providers/live";
import { avgInterestRatesResponse } from "./contract";
import { getAvgInterestRates } from "./get-avg-interest-rates";

const treasury = fs.readFileSync(path.join(process.cwd(), "data/market/treasury/avg-interest-rates.json"), "utf8");
let seen: { url: string }[] = [];
let server: http.Server;
let base = "";

beforeAll(async () => {
  server = http.createServer((req, res) => {
    seen.push({ url: req.url! });
    const url = new URL(req.url!, "http://x");
    if (url.pathname === "/services/api/fiscal_service/v2/accounting/od/avg_interest_rates")
      return res.writeHead(200, { "content-type": "application/json" }).end(treasury);
    res.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ error: "not recorded" }));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));
beforeEach(() => {
  seen = [];
});

const cfg = () => ({
  massiveBaseUrl: base,
  massiveApiKey: "test-massive-key-secret",
  treasuryBaseUrl: `${base}/services/api/fiscal_service`,
  hyperliquidBaseUrl: base,
  timeoutMs: 300,
  retries: 2,
  backoffMs: 5,
});

describe("embedded", () => {
  it("average interest rates cover bills, notes, bonds, TIPS, FRNs, savings and the aggregates", async () => {
    const res = await getAvgInterestRates({ providers: embeddedProviders() });
    expect(avgInterestRatesResponse.parse(res)).toBeTruthy();
    const names = res.rates.map((r) => r.security);
    for (const s of [
      "Treasury Bills",
      "Treasury Notes",
      "Treasury Bonds",
      "Treasury Inflation-Protected Securities (TIPS)",
      "Treasury Floating Rate Notes (FRN)",
      "United States Savings Securities",
      "Total Marketable",
      "Total Interest-bearing Debt",
    ]) {
      expect(names).toContain(s);
    }
    expect(res).toMatchObject({ source: "us_treasury", unit: "percent", record_date: "2025-05-31", as_of: null });
  });
});

describe("treasury adapter", () => {
  it("keeps the latest record_date's rows in source line order", async () => {
    const res = await getAvgInterestRates({ providers: liveProviders(cfg()) });
    expect(avgInterestRatesResponse.parse(res)).toBeTruthy();
    expect(res.record_date).toBe("2025-05-31");
    expect(res.count).toBe(17);
    expect(res.rates[0]).toEqual({ security_type: "Marketable", security: "Treasury Bills", avg_interest_rate: 4.316 });
    expect(res.as_of).not.toBeNull();
    const q = new URL(seen[0]!.url, "http://x").searchParams;
    expect(q.get("sort")).toBe("-record_date,src_line_nbr");
  });
});
