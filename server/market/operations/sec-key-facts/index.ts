// GET /api/v1/filings/{company}/key-facts: revenue, net income, EPS and shares outstanding by fiscal year or quarter from
// EDGAR's XBRL company facts, with the selection rules in every answer. Its source is the shared SEC EDGAR family
// (server/market/providers/sec-edgar); archived daily for the companies whose facts are held offline.
import { defineOperation } from "../operation";
import { embeddedHeldCompanies, secEdgarSource } from "../../providers/sec-edgar/sec-edgar-source";
import { contract, SEC_SOURCE } from "./contract";
import { getSecKeyFacts } from "./get-sec-key-facts";

const withFacts = () => embeddedHeldCompanies().filter((c) => c.facts);

export const secKeyFacts = defineOperation({
  contract,
  service: "sec-filings",
  meter: { key: "sec_key_facts", title: "SEC key financial facts", priceMicros: 30_000n },
  source: SEC_SOURCE,
  goal: "company revenue, net income and earnings per share (EPS) by fiscal year or quarter from SEC XBRL filings",
  example: () => ({ path: { company: "AAPL" }, query: { period: "annual", limit: "10" } }),
  coverage(kind) {
    if (kind === "live")
      return {
        summary:
          "Live from SEC EDGAR's XBRL company facts (data.sec.gov): any filer by ticker or CIK, every period it has reported in XBRL " +
          "(from about 2009). A filer without company facts answers 404; needs SEC_USER_AGENT.",
      };
    const held = embeddedHeldCompanies();
    const facts = withFacts();
    const without = held.filter((c) => !c.facts);
    return {
      summary:
        `Offline data: XBRL company facts (revenue, net income, EPS, shares outstanding) filed ${facts.map((c) => c.facts!.first_filed).sort()[0]}..` +
        `${facts
          .map((c) => c.facts!.last_filed)
          .sort()
          .at(-1)} for ` +
        facts.map((c) => `${c.ticker} (periods ending ${c.facts!.first_period_end}..${c.facts!.last_period_end})`).join(", ") +
        (without.length ? `; ${without.map((c) => c.ticker).join(", ")}: filings index only, key facts answer 403 not_included` : "") +
        ". Another company answers 403 not_included.",
      entities: facts.map((c) => ({ name: c.ticker ?? c.cik, first_date: c.facts!.first_period_end, last_date: c.facts!.last_period_end })),
    };
  },
  run: ({ path, query }, ctx) => getSecKeyFacts(path.company, query, ctx.providers.family(secEdgarSource)),
  feed: {
    description: "The latest annual key facts of each company whose facts are held offline, as GET /api/v1/filings/{company}/key-facts returned them",
    // Read when the feeds are listed, never at import.
    get entities() {
      return withFacts().map((c) => c.ticker ?? c.cik);
    },
    fetch: (entity, { providers }) => getSecKeyFacts(entity, { period: "annual", limit: 10 }, providers.family(secEdgarSource)),
    summarize(p) {
      const r = p as { cik: string; facts: { metric: string; value: number | null; period_end: string }[] };
      const revenue = r.facts.find((f) => f.metric === "revenue");
      return { cik: r.cik, count: r.facts.length, latest_period_end: r.facts[0]?.period_end ?? null, revenue: revenue?.value ?? null };
    },
  },
});
