// A company's filings index: EDGAR's column arrays turned into rows, filtered by form and filing date, sorted and paged,
// with each filing's sec.gov links built exactly as EDGAR builds them.
import { AppError, invalidParameter } from "../../../errors";
import { cik10, type EdgarFilings, type FilingsColumns, type SecEdgar } from "../../providers/sec-edgar/sec-edgar-source";
import { SEC_SOURCE } from "./contract";

export type SecFilingsQuery = { form?: string; amendments: boolean; from?: string; to?: string; sort: "asc" | "desc"; limit: number; offset: number };
export type FilingRow = ReturnType<typeof rowsOf>[number];

const ARCHIVES = "https://www.sec.gov/Archives/edgar/data";

/** EDGAR's path of a filing: the CIK without zeros, then the accession number without dashes. */
export function filingFolderUrl(cik: string, accession: string): string {
  return `${ARCHIVES}/${Number(cik)}/${accession.replace(/-/g, "")}`;
}

const flag = (v: number | undefined) => (v === undefined ? null : v === 1);
const orNull = (s: string | undefined) => (s === undefined || s === "" ? null : s);

/** One row per filing of a columns block (every column is index-aligned with accessionNumber). */
export function rowsOf(cik: string, c: FilingsColumns) {
  return c.accessionNumber.map((accession, i) => {
    const folder = filingFolderUrl(cik, accession);
    const doc = orNull(c.primaryDocument[i]);
    return {
      accession_number: accession,
      form: c.form[i] ?? "",
      filing_date: c.filingDate[i] ?? "",
      report_date: orNull(c.reportDate[i]),
      acceptance_time: orNull(c.acceptanceDateTime[i]),
      primary_document: doc,
      primary_document_description: orNull(c.primaryDocDescription?.[i]),
      document_url: doc ? `${folder}/${encodeURI(doc)}` : null,
      index_url: `${folder}/${accession}-index.htm`,
      items:
        orNull(c.items?.[i])
          ?.split(",")
          .map((s) => s.trim())
          .filter(Boolean) ?? [],
      size_bytes: typeof c.size?.[i] === "number" ? c.size[i]! : null,
      is_xbrl: flag(c.isXBRL?.[i]),
      is_inline_xbrl: flag(c.isInlineXBRL?.[i]),
      file_number: orNull(c.fileNumber?.[i]),
    };
  });
}

/** The forms a `form` filter accepts (upper-cased), with their amendments when asked. */
export function formSet(form: string | undefined, amendments: boolean): Set<string> | null {
  if (!form) return null;
  const forms = form.split(",").map((f) => f.trim().toUpperCase());
  return new Set(amendments ? forms.flatMap((f) => (f.endsWith("/A") ? [f] : [f, `${f}/A`])) : forms);
}

function coverageOf(read: EdgarFilings, rows: FilingRow[], q: SecFilingsQuery, heldFrom: string | null) {
  const dates = rows.map((r) => r.filing_date).sort();
  const first = dates[0] ?? null;
  const olderUnread = read.unread.filter((f) => !q.from || f.filingTo >= q.from);
  const sliced = heldFrom !== null && (!q.from || q.from < heldFrom);
  const notes: string[] = [];
  if (sliced) notes.push(`Offline, the oldest filing held is of ${heldFrom}: the committed EDGAR file is a slice, and older filings are not included.`);
  if (olderUnread.length) {
    const n = olderUnread.reduce((s, f) => s + f.filingCount, 0);
    notes.push(
      q.from
        ? `EDGAR holds ${n} more filings in ${olderUnread.length} older documents this call did not read (at most a few a call): narrow from/to.`
        : `EDGAR holds ${n} older filings (through ${olderUnread
            .map((f) => f.filingTo)
            .sort()
            .at(-1)}) beyond its recent list: pass from to read them.`,
    );
  }
  return { first_filing_date: first, last_filing_date: dates.at(-1) ?? null, complete: !sliced && olderUnread.length === 0, note: notes.join(" ") || null };
}

export async function findSecFilings(id: string, q: SecFilingsQuery, edgar: SecEdgar) {
  if (q.from && q.to && q.from > q.to) throw invalidParameter("from", "from must be on or before to");
  const company = await edgar.company(id);
  const read = await edgar.filings(company, { from: q.from });
  const cik = cik10(read.doc.cik);
  const seen = new Set<string>();
  const all = read.blocks.flatMap((b) => rowsOf(cik, b)).filter((r) => !seen.has(r.accession_number) && !!seen.add(r.accession_number));
  // Offline the committed file is a slice: a window wholly before it is not held, never an empty "no filings".
  const heldFrom = edgar.kind === "embedded" ? (all.map((r) => r.filing_date).sort()[0] ?? null) : null;
  if (heldFrom && q.to && q.to < heldFrom)
    throw new AppError("not_included", {
      reason: "timeframe_not_included",
      detail: `filings of ${company.name} before ${heldFrom} are not held offline (held: ${heldFrom} on)`,
      extra: {
        cik,
        coverage: {
          first_date: heldFrom,
          last_date: all
            .map((r) => r.filing_date)
            .sort()
            .at(-1),
        },
      },
    });
  const forms = formSet(q.form, q.amendments);
  const matching = all
    .filter((r) => (!forms || forms.has(r.form.toUpperCase())) && (!q.from || r.filing_date >= q.from) && (!q.to || r.filing_date <= q.to))
    .sort((a, b) => {
      const k =
        a.filing_date.localeCompare(b.filing_date) ||
        (a.acceptance_time ?? "").localeCompare(b.acceptance_time ?? "") ||
        a.accession_number.localeCompare(b.accession_number);
      return q.sort === "asc" ? k : -k;
    });
  const page = matching.slice(q.offset, q.offset + q.limit);
  const doc = read.doc;
  return {
    source: SEC_SOURCE,
    as_of: read.retrievedAt,
    ticker: doc.tickers?.[0] ?? company.ticker,
    cik,
    company: doc.name,
    exchanges: (doc.exchanges ?? []).filter((e): e is string => typeof e === "string"),
    sic: orNull(doc.sic),
    sic_description: orNull(doc.sicDescription),
    fiscal_year_end: orNull(doc.fiscalYearEnd ?? undefined),
    total: matching.length,
    count: page.length,
    offset: q.offset,
    next_offset: q.offset + page.length < matching.length ? q.offset + page.length : null,
    coverage: coverageOf(read, all, q, heldFrom),
    filings: page,
  };
}
