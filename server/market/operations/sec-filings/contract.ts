// The SEC filings index operation's contract: a company's filings as EDGAR indexes them, by ticker or CIK, filtered by
// form and filing date, paged. Zod only (and the shared pieces in server/contracts).
import { z } from "zod";
import { envelope, isoDate, queryBool, queryInt } from "../../../contracts/common";
import type { OperationContract } from "../../../contracts/operations";

export const SEC_SOURCE = "sec_edgar" as const;

/** A ticker as exchanges write it (AAPL, BRK.B, BRK-B) or a CIK (1 to 10 digits, zeros optional). */
export const companyId = z
  .string()
  .regex(/^(?:[A-Z][A-Z0-9.-]{0,9}|\d{1,10})$/, "must be an uppercase ticker such as AAPL or a CIK such as 320193")
  .meta({ description: "The company: its ticker (AAPL) or its SEC CIK (320193 or 0000320193).", example: "AAPL" });

const FORM = "[A-Za-z0-9][A-Za-z0-9 /-]{0,19}";

export const secFilingsPath = z.object({ company: companyId });
export const secFilingsQuery = z.object({
  form: z
    .string()
    .regex(new RegExp(`^${FORM}(?:,${FORM}){0,9}$`), "must be form types separated by commas, such as 10-K,10-Q,8-K")
    .optional()
    .meta({
      description: "Only these form types, comma-separated, as EDGAR names them (10-K, 10-Q, 8-K, 4, DEF 14A...); case-insensitive. Default: every form.",
    }),
  amendments: queryBool.default(true).meta({ description: "With `form`, also the amendments of those forms (10-K/A with 10-K). Default true." }),
  from: isoDate.optional().meta({ description: "Filed on or after this date (YYYY-MM-DD)." }),
  to: isoDate.optional().meta({ description: "Filed on or before this date (YYYY-MM-DD)." }),
  sort: z.enum(["desc", "asc"]).default("desc").meta({ description: "By filing date (then acceptance time): desc, newest first (default), or asc." }),
  limit: queryInt(1, 200).default(40).meta({ description: "Filings per page (1-200, default 40)." }),
  offset: queryInt(0, 100_000).default(0).meta({ description: "Filings to skip (paging): the previous page's `next_offset`." }),
});

export const filingRow = z.object({
  accession_number: z.string().meta({ description: "EDGAR's accession number, 0000320193-25-000079." }),
  form: z.string(),
  filing_date: z.string(),
  report_date: z.string().nullable().meta({ description: "The period or event the filing reports on; null where EDGAR gives none." }),
  acceptance_time: z.string().nullable().meta({ description: "When EDGAR accepted the filing (ISO 8601, as EDGAR gives it)." }),
  primary_document: z.string().nullable(),
  primary_document_description: z.string().nullable(),
  document_url: z
    .string()
    .nullable()
    .meta({ description: "The primary document on sec.gov: Archives/edgar/data/<CIK>/<accession without dashes>/<document>." }),
  index_url: z.string().meta({ description: "The filing's index page on sec.gov (every document of the filing)." }),
  items: z.array(z.string()).meta({ description: "8-K items reported (2.02, 9.01...); empty for other forms." }),
  size_bytes: z.number().nullable(),
  is_xbrl: z.boolean().nullable(),
  is_inline_xbrl: z.boolean().nullable(),
  file_number: z.string().nullable(),
});

export const secFilingsResponse = z.object({
  source: z.literal(SEC_SOURCE),
  as_of: z
    .string()
    .nullable()
    .meta({ description: "When EDGAR's document was retrieved (ISO 8601); null offline, where the committed file's retrieval time is not known." }),
  feedback: envelope.feedback,
  ticker: z.string().nullable().meta({ description: "The company's first ticker on EDGAR; null when it lists none." }),
  cik: z.string().meta({ description: "Ten digits, zero-padded, as EDGAR writes it." }),
  company: z.string(),
  exchanges: z.array(z.string()),
  sic: z.string().nullable(),
  sic_description: z.string().nullable(),
  fiscal_year_end: z.string().nullable().meta({ description: "MMDD, as EDGAR gives it (0926: late September)." }),
  total: z.number().meta({ description: "Filings matching the filters among those read." }),
  count: z.number(),
  offset: z.number(),
  next_offset: z.number().nullable().meta({ description: "The offset of the next page; null on the last." }),
  coverage: z.object({
    first_filing_date: z.string().nullable().meta({ description: "The oldest filing date among the filings read for this answer." }),
    last_filing_date: z.string().nullable(),
    complete: z.boolean().meta({ description: "False when EDGAR (or the offline file) holds filings older than those read; see `note`." }),
    note: z.string().nullable(),
  }),
  filings: z.array(filingRow),
});

export const contract = {
  key: "sec_filings",
  method: "GET",
  path: "/api/v1/filings/{company}",
  upstreamPath: "/filings/{company}",
  summary: "SEC filings index of a company (10-K, 10-Q, 8-K...) from EDGAR",
  description:
    "A company's SEC filings as EDGAR indexes them, by ticker or CIK: form type, filing date, report date, accession number, " +
    "acceptance time and the primary document's sec.gov URL, filtered by form and filing date, newest first, paged.",
  pathParams: secFilingsPath,
  query: secFilingsQuery,
  response: secFilingsResponse,
  keywords: [
    "sec",
    "edgar",
    "filings",
    "filing",
    "10-K",
    "10-Q",
    "8-K",
    "annual report",
    "quarterly report",
    "accession",
    "cik",
    "proxy",
    "form",
    "disclosure",
  ],
} satisfies OperationContract;
