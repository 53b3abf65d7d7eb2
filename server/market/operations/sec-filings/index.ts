// GET /api/v1/filings/{company}: a company's SEC filings index (EDGAR's submissions), by ticker or CIK. Its source is
// the shared SEC EDGAR family (server/market/providers/sec-edgar); archived daily for the companies held offline.
import { defineOperation } from "../operation";
import { embeddedHeldCompanies, secEdgarSource } from "../../providers/sec-edgar/sec-edgar-source";
import { contract, SEC_SOURCE } from "./contract";
import { findSecFilings } from "./find-sec-filings";

export const secFilings = defineOperation({
  contract,
  service: "sec-filings",
  meter: { key: "sec_filings", title: "SEC filings index", priceMicros: 20_000n },
  source: SEC_SOURCE,
  goal: "SEC EDGAR filings of a company: 10-K annual and 10-Q quarterly reports, 8-K, with document links",
  example: () => ({ path: { company: "AAPL" }, query: { form: "10-K,10-Q", limit: "10" } }),
  coverage(kind) {
    if (kind === "live")
      return {
        summary:
          "Live from SEC EDGAR (data.sec.gov submissions): any filer by ticker (EDGAR's ticker map) or CIK, its recent filings (at least a year, " +
          "or 1,000) and, with `from`, older ones. An unknown ticker answers 404 unknown_ticker; needs SEC_USER_AGENT.",
      };
    const held = embeddedHeldCompanies();
    return {
      summary:
        `Offline data: EDGAR's filings index of ${held.length} companies, filings from ${held.map((c) => c.filings.first_date).sort()[0]} ` +
        `to ${held
          .map((c) => c.filings.last_date)
          .sort()
          .at(-1)}: ` +
        held.map((c) => `${c.ticker} (CIK ${c.cik}, ${c.filings.count} filings ${c.filings.first_date}..${c.filings.last_date})`).join(", ") +
        ". Another company answers 403 not_included; a window before a company's first held filing too.",
      entities: held.map((c) => ({ name: c.ticker ?? c.cik, first_date: c.filings.first_date, last_date: c.filings.last_date })),
    };
  },
  run: ({ path, query }, ctx) => findSecFilings(path.company, query, ctx.providers.family(secEdgarSource)),
  feed: {
    description: "The 20 newest filings of each company held offline, as GET /api/v1/filings/{company} returned them",
    // The companies the committed files hold (read when the feeds are listed, never at import).
    get entities() {
      return embeddedHeldCompanies().map((c) => c.ticker ?? c.cik);
    },
    fetch: (entity, { providers }) => findSecFilings(entity, { amendments: true, sort: "desc", limit: 20, offset: 0 }, providers.family(secEdgarSource)),
    summarize(p) {
      const r = p as { cik: string; total: number; filings: { form: string; filing_date: string; accession_number: string }[] };
      const newest = r.filings[0];
      return {
        cik: r.cik,
        total: r.total,
        newest_filing_date: newest?.filing_date ?? null,
        newest_form: newest?.form ?? null,
        newest_accession: newest?.accession_number ?? null,
      };
    },
  },
});
