// The filings index offline against the committed EDGAR documents (data/filings/submissions): every filing of every
// company held, with its values, in order; links built as EDGAR builds them; filters, paging and what is not held.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { embeddedEdgar, embeddedHeldCompanies } from "../../providers/sec-edgar/embedded-edgar";
import type { EdgarSubmissions } from "../../providers/sec-edgar/edgar-types";
import { secFilingsResponse } from "./contract";
import { findSecFilings, type SecFilingsQuery } from "./find-sec-filings";
import { failureOf as failure } from "../../test/refusals";

const DIR = path.join(process.cwd(), "data/filings/submissions");
const files = fs.readdirSync(DIR).filter((f) => f.endsWith(".json"));
const q = (over: Partial<SecFilingsQuery> = {}): SecFilingsQuery => ({ amendments: true, sort: "desc", limit: 200, offset: 0, ...over });
describe("filings index offline (fidelity with the committed EDGAR files)", () => {
  it.each(files)("%s: every filing once, with EDGAR's values, newest first across pages", async (file) => {
    const doc = JSON.parse(fs.readFileSync(path.join(DIR, file), "utf8")) as EdgarSubmissions;
    const r = doc.filings.recent;
    const rows: Awaited<ReturnType<typeof findSecFilings>>["filings"] = [];
    for (let offset: number | null = 0; offset !== null;) {
      const page = await findSecFilings(doc.cik, q({ offset }), embeddedEdgar);
      expect(secFilingsResponse.safeParse(page).error).toBeUndefined();
      expect(page.total).toBe(r.accessionNumber.length);
      rows.push(...page.filings);
      offset = page.next_offset;
    }
    expect(rows).toHaveLength(r.accessionNumber.length);
    expect(new Set(rows.map((x) => x.accession_number))).toEqual(new Set(r.accessionNumber));
    for (const row of rows) {
      const i = r.accessionNumber.indexOf(row.accession_number);
      expect([row.form, row.filing_date, row.report_date ?? "", row.acceptance_time, row.primary_document]).toEqual([
        r.form[i],
        r.filingDate[i],
        r.reportDate[i],
        r.acceptanceDateTime[i],
        r.primaryDocument[i],
      ]);
    }
    const order = rows.map((x) => `${x.filing_date} ${x.acceptance_time}`);
    expect(order).toEqual([...order].sort().reverse());
  });

  it("builds sec.gov links as EDGAR does: CIK without zeros, accession without dashes", async () => {
    const res = await findSecFilings("AAPL", q({ form: "10-K", from: "2025-10-31", to: "2025-10-31" }), embeddedEdgar);
    expect(res).toMatchObject({ ticker: "AAPL", cik: "0000320193", company: "Apple Inc.", fiscal_year_end: "0926", total: 1 });
    expect(res.filings[0]).toMatchObject({
      accession_number: "0000320193-25-000079",
      form: "10-K",
      report_date: "2025-09-27",
      document_url: "https://www.sec.gov/Archives/edgar/data/320193/000032019325000079/aapl-20250927.htm",
      index_url: "https://www.sec.gov/Archives/edgar/data/320193/000032019325000079/0000320193-25-000079-index.htm",
      items: [],
    });
  });

  it("filters forms case-insensitively, with or without their amendments, and by filing date", async () => {
    const withA = await findSecFilings("WMT", q({ form: "8-k" }), embeddedEdgar);
    const withoutA = await findSecFilings("WMT", q({ form: "8-K", amendments: false }), embeddedEdgar);
    expect(withA.total - withoutA.total).toBe(2); // Walmart's two 8-K/A
    expect(new Set(withoutA.filings.map((f) => f.form))).toEqual(new Set(["8-K"]));
    const window = await findSecFilings("WMT", q({ from: "2025-01-01", to: "2025-03-31", sort: "asc" }), embeddedEdgar);
    expect(window.filings.every((f) => f.filing_date >= "2025-01-01" && f.filing_date <= "2025-03-31")).toBe(true);
    expect(window.filings[0]!.filing_date <= window.filings.at(-1)!.filing_date).toBe(true);
  });

  it("finds a company by ticker or by CIK with or without zeros", async () => {
    const a = await findSecFilings("NKE", q({ limit: 5 }), embeddedEdgar);
    expect((await findSecFilings("320187", q({ limit: 5 }), embeddedEdgar)).filings).toEqual(a.filings);
    expect((await findSecFilings("0000320187", q({ limit: 5 }), embeddedEdgar)).filings).toEqual(a.filings);
  });

  it("says the offline file is a slice, and refuses what it does not hold with 403 naming what it does", async () => {
    const res = await findSecFilings("MSFT", q({ limit: 1 }), embeddedEdgar);
    expect(res.coverage).toEqual({
      first_filing_date: "2024-01-16",
      last_filing_date: "2026-06-25",
      complete: false,
      note: "Offline, the oldest filing held is of 2024-01-16: the committed EDGAR file is a slice, and older filings are not included.",
    });
    const other = await failure(findSecFilings("TSLA", q(), embeddedEdgar));
    expect([other.status, other.reason]).toEqual([403, "company_not_included"]);
    expect(other.detail).toContain("AAPL (CIK 0000320193)");
    const early = await failure(findSecFilings("AAPL", q({ to: "2023-12-31" }), embeddedEdgar));
    expect([early.status, early.reason]).toEqual([403, "timeframe_not_included"]);
    const backwards = await failure(findSecFilings("AAPL", q({ from: "2025-01-02", to: "2025-01-01" }), embeddedEdgar));
    expect([backwards.status, backwards.extra?.parameter]).toEqual([400, "from"]);
  });

  it("its README states the coverage the files hold", () => {
    const readme = fs.readFileSync(path.join(import.meta.dirname, "README.md"), "utf8");
    for (const c of embeddedHeldCompanies())
      expect(readme).toContain(`| ${c.ticker} | ${c.cik} | ${c.filings.count} | ${c.filings.first_date} .. ${c.filings.last_date} |`);
  });
});
