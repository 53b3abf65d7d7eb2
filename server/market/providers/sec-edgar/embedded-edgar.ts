// SEC EDGAR offline: the committed submissions and companyfacts documents under data/filings/ (EDGAR's own files, sliced;
// data/filings/SOURCES.md). A ticker resolves through the submissions' own `tickers`. A company not held answers 403
// not_included naming those held: offline we cannot tell whether EDGAR knows it.
import { AppError } from "../../../errors";
import { cached, dataFileIfPresent, dataFileNames } from "../data-file";
import { cik10, type EdgarCompany, type EdgarCompanyFacts, type EdgarSubmissions, type HeldCompany, type SecEdgar } from "./edgar-types";

const SUBMISSIONS_DIR = "filings/submissions";
const FACTS_DIR = "filings/companyfacts";

const heldCiks = () => cached("sec-edgar:ciks", () => dataFileNames(SUBMISSIONS_DIR).flatMap((f) => /^CIK(\d{10})\.json$/.exec(f)?.[1] ?? []));
const submissionsOf = (cik: string) => cached(`sec-edgar:sub:${cik}`, () => dataFileIfPresent<EdgarSubmissions>(`${SUBMISSIONS_DIR}/CIK${cik}.json`));
const factsOf = (cik: string) => cached(`sec-edgar:facts:${cik}`, () => dataFileIfPresent<EdgarCompanyFacts>(`${FACTS_DIR}/CIK${cik}.json`));

function companyOf(doc: EdgarSubmissions): EdgarCompany {
  return { cik: cik10(doc.cik), ticker: doc.tickers[0] ?? null, name: doc.name };
}

/** Every period end and filing date of a companyfacts document (its coverage). */
function factsSpan(doc: EdgarCompanyFacts): HeldCompany["facts"] {
  let first = "";
  let last = "";
  let firstFiled = "";
  let filed = "";
  for (const concepts of Object.values(doc.facts))
    for (const c of Object.values(concepts))
      for (const facts of Object.values(c.units))
        for (const f of facts) {
          if (!first || f.end < first) first = f.end;
          if (f.end > last) last = f.end;
          if (!firstFiled || f.filed < firstFiled) firstFiled = f.filed;
          if (f.filed > filed) filed = f.filed;
        }
  return first ? { first_period_end: first, last_period_end: last, first_filed: firstFiled, last_filed: filed } : null;
}

export function embeddedHeldCompanies(): HeldCompany[] {
  return cached("sec-edgar:held", () =>
    heldCiks().flatMap((cik) => {
      const doc = submissionsOf(cik);
      if (!doc) return [];
      const dates = doc.filings.recent.filingDate;
      const facts = factsOf(cik);
      return [
        {
          ...companyOf(doc),
          filings: { count: dates.length, first_date: dates.reduce((a, b) => (b < a ? b : a)), last_date: dates.reduce((a, b) => (b > a ? b : a)) },
          facts: facts ? factsSpan(facts) : null,
        },
      ];
    }),
  );
}

const heldList = () =>
  embeddedHeldCompanies()
    .map((c) => `${c.ticker ?? "-"} (CIK ${c.cik})`)
    .join(", ");

function notHeld(id: string): AppError {
  return new AppError("not_included", {
    reason: "company_not_included",
    detail: `${id} is not held offline; held: ${heldList()}`,
    extra: { company: id },
  });
}

export const embeddedEdgar: SecEdgar = {
  kind: "embedded",
  async company(id) {
    const byCik = /^\d{1,10}$/.test(id) ? submissionsOf(cik10(id)) : null;
    if (byCik) return companyOf(byCik);
    // EDGAR writes class suffixes with a hyphen (BRK-B); agents often write a dot.
    const want = id.replace(".", "-");
    for (const cik of heldCiks()) {
      const doc = submissionsOf(cik);
      if (doc?.tickers.some((t) => t.toUpperCase() === want)) return companyOf(doc);
    }
    throw notHeld(id);
  },
  async filings(company) {
    const doc = submissionsOf(company.cik);
    if (!doc) throw notHeld(company.ticker ?? company.cik);
    // The committed file's retrieval time is not known exactly, so retrievedAt is null.
    return { doc, blocks: [doc.filings.recent], unread: doc.filings.files ?? [], retrievedAt: null };
  },
  async companyFacts(company) {
    const facts = factsOf(company.cik);
    if (!facts) {
      const withFacts = embeddedHeldCompanies().filter((c) => c.facts);
      throw new AppError("not_included", {
        reason: "facts_not_included",
        detail:
          `XBRL company facts for ${company.name} (CIK ${company.cik}) are not held offline (its filings index is); ` +
          `facts are held for ${withFacts.map((c) => `${c.ticker ?? "-"} (CIK ${c.cik})`).join(", ")}`,
        extra: { company: company.ticker ?? company.cik, cik: company.cik },
      });
    }
    return { facts, retrievedAt: null };
  },
  held: embeddedHeldCompanies,
};
