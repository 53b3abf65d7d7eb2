// Key facts offline against the committed EDGAR company facts (data/filings/companyfacts): the tag order, the choice
// among repeated facts, as_of, fiscal labels and frames, units, and every value served traced back to the file.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { embeddedEdgar, embeddedHeldCompanies } from "../../providers/sec-edgar/embedded-edgar";
import type { EdgarCompanyFacts } from "../../providers/sec-edgar/edgar-types";
import { secKeyFactsResponse } from "./contract";
import { getSecKeyFacts, type SecKeyFactsQuery } from "./get-sec-key-facts";
import { METRIC_DEFS, METRICS, PERIODIC_FORMS } from "./select-key-facts";
import { failureOf as failure } from "../../test/refusals";

const DIR = path.join(process.cwd(), "data/filings/companyfacts");
const doc = (cik: string) => JSON.parse(fs.readFileSync(path.join(DIR, `CIK${cik}.json`), "utf8")) as EdgarCompanyFacts;
const q = (over: Partial<SecKeyFactsQuery> = {}): SecKeyFactsQuery => ({ period: "annual", limit: 500, ...over });
const one = async (id: string, over: Partial<SecKeyFactsQuery>, periodEnd: string) => {
  const res = await getSecKeyFacts(id, q(over), embeddedEdgar);
  return res.facts.find((f) => f.period_end === periodEnd);
};
describe("key facts: which fact is served", () => {
  it("revenue takes total Revenues before the ASC 606 contract-revenue tag (Walmart reports both)", async () => {
    const f = await one("WMT", { metric: "revenue" }, "2026-01-31");
    expect(f).toMatchObject({ tag: "us-gaap:Revenues", value: 713163000000, unit: "USD", fiscal_year: 2026, fiscal_period: "FY", calendar_frame: "CY2025" });
  });

  it("falls back through the tag order per period (Nike's pre-ASC 606 SalesRevenueNet quarter)", async () => {
    const res = await getSecKeyFacts("NKE", q({ metric: "revenue", period: "quarterly", to: "2018-11-30" }), embeddedEdgar);
    expect(res.facts.find((f) => f.period_end === "2017-11-30")).toMatchObject({ tag: "us-gaap:SalesRevenueNet", value: 8554000000, filed: "2019-01-08" });
    // The next quarter was Nike's own period in that filing (under SalesRevenueNet): its fiscal labels come from it.
    expect(res.facts.find((f) => f.period_end === "2018-11-30")).toMatchObject({
      tag: "us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax",
      fiscal_year: 2019,
      fiscal_period: "Q2",
    });
  });

  it("serves the latest restatement, and with as_of the value as it was known then (Walmart's 3:1 split)", async () => {
    const latest = await one("WMT", { metric: "eps_basic" }, "2023-01-31");
    expect(latest).toMatchObject({ value: 1.43, unit: "USD/shares", filed: "2025-03-14", first_filed: "2023-03-17", restated: true });
    const then = await one("WMT", { metric: "eps_basic", as_of: "2023-06-01" }, "2023-01-31");
    expect(then).toMatchObject({ value: 4.29, filed: "2023-03-17", restated: false });
    // A fact filed on the as_of date counts as known.
    expect(await one("WMT", { metric: "eps_basic", as_of: "2024-03-15" }, "2023-01-31")).toMatchObject({ value: 1.43, filed: "2024-03-15" });
  });

  it("takes only periodic reports: Home Depot's 10-K net income, not its proxy statement's", async () => {
    expect(await one("HD", { metric: "net_income" }, "2026-02-01")).toMatchObject({ value: 14156000000, form: "10-K", filed: "2026-03-18" });
  });

  it("labels fiscal periods from the filing a period belongs to, not from later comparatives", async () => {
    // Apple's FY2017 is held only as a comparative in the 2019 10-K: no label.
    expect(await one("AAPL", { metric: "revenue" }, "2017-09-30")).toMatchObject({ fiscal_year: null, fiscal_period: null, calendar_frame: "CY2017" });
    expect(await one("AAPL", { metric: "revenue" }, "2025-09-27")).toMatchObject({ fiscal_year: 2025, fiscal_period: "FY", duration_days: 364 });
    const q4 = await one("AAPL", { metric: "eps_basic", period: "quarterly" }, "2019-09-28");
    expect(q4).toMatchObject({ fiscal_year: 2019, fiscal_period: "Q4", calendar_frame: "CY2019Q3", value: 0.76, restated: true });
    expect(await one("AAPL", { metric: "revenue", period: "quarterly" }, "2025-12-27")).toMatchObject({
      fiscal_year: 2026,
      fiscal_period: "Q1",
      calendar_frame: "CY2025Q4",
    });
  });

  it("shares outstanding are cover-page instants: annual from the 10-K, quarterly from the 10-Q", async () => {
    const annual = await getSecKeyFacts("AAPL", q({ metric: "shares_outstanding" }), embeddedEdgar);
    expect(annual.facts.every((f) => f.form.startsWith("10-K") && f.period_start === null && f.unit === "shares")).toBe(true);
    expect(annual.facts[0]).toMatchObject({
      period_end: "2025-10-17",
      value: 14776353000,
      fiscal_year: 2025,
      fiscal_period: "FY",
      calendar_frame: "CY2025Q3I",
    });
    const quarterly = await getSecKeyFacts("AAPL", q({ metric: "shares_outstanding", period: "quarterly" }), embeddedEdgar);
    expect(quarterly.facts.every((f) => f.form.startsWith("10-Q"))).toBe(true);
    const nike = await getSecKeyFacts("NKE", q(), embeddedEdgar);
    expect(nike.coverage.not_reported).toEqual(["shares_outstanding"]);
  });
});

describe("key facts offline (fidelity with the committed files)", () => {
  it.each(embeddedHeldCompanies().filter((c) => c.facts))("$ticker: every value served is a periodic report's fact in the file, in its unit", async (c) => {
    const file = doc(c.cik);
    for (const period of ["annual", "quarterly"] as const) {
      const res = await getSecKeyFacts(c.cik, q({ period }), embeddedEdgar);
      expect(secKeyFactsResponse.safeParse(res).error).toBeUndefined();
      expect(res.units).toEqual(Object.fromEntries(METRICS.map((m) => [m, METRIC_DEFS[m].unit])));
      for (const f of res.facts) {
        const [taxonomy, concept] = f.tag.split(":");
        const facts = file.facts[taxonomy!]![concept!]!.units[f.unit]!;
        const src = facts.find((x) => x.accn === f.accession_number && x.end === f.period_end && (x.start ?? null) === f.period_start && x.val === f.value);
        expect(src, `${f.metric} ${f.period_end}`).toBeDefined();
        expect(PERIODIC_FORMS).toContain(src!.form);
        // No later periodic filing of the same tag reports the period.
        expect(facts.some((x) => x.end === f.period_end && (x.start ?? null) === f.period_start && PERIODIC_FORMS.includes(x.form) && x.filed > f.filed)).toBe(
          false,
        );
      }
      // One row per metric and period.
      const keys = res.facts.map((f) => `${f.metric}|${f.period_start}|${f.period_end}`);
      expect(new Set(keys).size).toBe(keys.length);
    }
  });
});

describe("key facts: what is not held", () => {
  it("Microsoft's facts are not held offline: 403 naming the companies whose facts are", async () => {
    const e = await failure(getSecKeyFacts("MSFT", q(), embeddedEdgar));
    expect([e.status, e.code, e.reason]).toEqual([403, "not_included", "facts_not_included"]);
    expect(e.detail).toContain("its filings index is");
    expect(e.detail).toContain("AAPL (CIK 0000320193)");
  });

  it("a point in time before the held facts is 403, and from after to a 400", async () => {
    const e = await failure(getSecKeyFacts("AAPL", q({ as_of: "2018-12-31" }), embeddedEdgar));
    expect([e.status, e.reason]).toEqual([403, "timeframe_not_included"]);
    const b = await failure(getSecKeyFacts("AAPL", q({ from: "2024-01-02", to: "2024-01-01" }), embeddedEdgar));
    expect([b.status, b.extra?.parameter]).toEqual([400, "from"]);
  });

  it("its README states the coverage the files hold", () => {
    const readme = fs.readFileSync(path.join(import.meta.dirname, "README.md"), "utf8");
    for (const c of embeddedHeldCompanies())
      expect(readme).toContain(
        c.facts
          ? `| ${c.ticker} | ${c.cik} | ${c.facts.first_period_end} .. ${c.facts.last_period_end} | ${c.facts.first_filed} .. ${c.facts.last_filed} |`
          : `| ${c.ticker} | ${c.cik} | not held |`,
      );
  });
});
