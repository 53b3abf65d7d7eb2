// SEC EDGAR's JSON documents as EDGAR publishes them (data.sec.gov): the submissions document (a company and its filings
// index, column arrays newest first) and the XBRL company facts. The committed files under data/filings/ keep this shape,
// so the embedded and the live source parse the same thing.

/** `filings.recent` (and each older `filings.files` document): index-aligned columns, newest first. */
export type FilingsColumns = {
  accessionNumber: string[];
  filingDate: string[];
  reportDate: string[];
  acceptanceDateTime: string[];
  form: string[];
  primaryDocument: string[];
  primaryDocDescription?: string[];
  items?: string[];
  size?: number[];
  isXBRL?: number[];
  isInlineXBRL?: number[];
  fileNumber?: string[];
};

/** An older filings document named in `filings.files` (fetched from data.sec.gov/submissions/<name>). */
export type SubmissionsFileRef = { name: string; filingCount: number; filingFrom: string; filingTo: string };

export type EdgarSubmissions = {
  cik: string;
  name: string;
  tickers: string[];
  exchanges: string[];
  sic?: string;
  sicDescription?: string;
  fiscalYearEnd?: string | null;
  filings: { recent: FilingsColumns; files: SubmissionsFileRef[] };
};

/** One XBRL fact as companyfacts lists it. `fy`/`fp`/`form`/`filed` describe the filing that reported it, not the fact. */
export type XbrlFact = {
  start?: string;
  end: string;
  val: number;
  accn: string;
  fy: number | null;
  fp: string | null;
  form: string;
  filed: string;
  frame?: string;
};
export type XbrlConcept = { label: string | null; description: string | null; units: Record<string, XbrlFact[]> };
export type EdgarCompanyFacts = { cik: number; entityName: string; facts: Record<string, Record<string, XbrlConcept>> };

/** A company resolved from a ticker or a CIK. */
export type EdgarCompany = { cik: string; ticker: string | null; name: string };

/** The filings a call could read: `recent`, then the older documents read for the window; `unread` are those left out. */
export type EdgarFilings = { doc: EdgarSubmissions; blocks: FilingsColumns[]; unread: SubmissionsFileRef[]; retrievedAt: string | null };

/** What the embedded source holds for one company (coverage, before anyone pays). */
export type HeldCompany = {
  cik: string;
  name: string;
  ticker: string | null;
  filings: { count: number; first_date: string; last_date: string };
  facts: { first_period_end: string; last_period_end: string; first_filed: string; last_filed: string } | null;
};

export interface SecEdgar {
  readonly kind: "embedded" | "live";
  /** The company `id` (a ticker or a CIK) names. 404 when EDGAR does not know it; 403 not_included offline when not held. */
  company(id: string): Promise<EdgarCompany>;
  /** Its filings index; older documents are read (live) only when `from` reaches before `recent`. */
  filings(company: EdgarCompany, window: { from?: string }): Promise<EdgarFilings>;
  /** Its XBRL company facts; 403 not_included offline when not held, 404 live when EDGAR has none. */
  companyFacts(company: EdgarCompany): Promise<{ facts: EdgarCompanyFacts; retrievedAt: string | null }>;
  /** The companies held (embedded); null live, where any EDGAR filer can be asked. */
  held(): HeldCompany[] | null;
}

/** A CIK as EDGAR's file names write it: ten digits, zero-padded. */
export const cik10 = (cik: string | number) => String(cik).replace(/^0+/, "").padStart(10, "0");
