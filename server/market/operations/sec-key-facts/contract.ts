// The SEC key facts operation's contract: revenue, net income, EPS and shares outstanding by period, from a company's XBRL
// company facts on EDGAR. Zod only (and the shared pieces in server/contracts).
import { z } from "zod";
import { envelope, isoDate, queryInt } from "../../../contracts/common";
import type { OperationContract } from "../../../contracts/operations";

export const SEC_SOURCE = "sec_edgar" as const;
const METRIC_NAMES = ["revenue", "net_income", "eps_basic", "eps_diluted", "shares_outstanding"] as const;

export const secKeyFactsPath = z.object({
  company: z
    .string()
    .regex(/^(?:[A-Z][A-Z0-9.-]{0,9}|\d{1,10})$/, "must be an uppercase ticker such as AAPL or a CIK such as 320193")
    .meta({ description: "The company: its ticker (AAPL) or its SEC CIK (320193 or 0000320193).", example: "AAPL" }),
});
export const secKeyFactsQuery = z.object({
  metric: z.enum(METRIC_NAMES).optional().meta({ description: "Only this metric. Default: all five." }),
  period: z
    .enum(["annual", "quarterly"])
    .default("annual")
    .meta({ description: "annual: fiscal years (10-K); quarterly: fiscal quarters (10-Q; Q4 is rarely reported on its own). Default annual." }),
  from: isoDate.optional().meta({ description: "Periods ending on or after this date (YYYY-MM-DD)." }),
  to: isoDate.optional().meta({ description: "Periods ending on or before this date (YYYY-MM-DD)." }),
  as_of: isoDate
    .optional()
    .meta({ description: "Point in time: only facts filed on or before this date, so each value is the one known then (no later restatement)." }),
  limit: queryInt(1, 500).default(50).meta({ description: "Rows returned, newest period first (1-500, default 50)." }),
});

export const keyFactRow = z.object({
  metric: z.enum(METRIC_NAMES),
  tag: z.string().meta({ description: "The XBRL concept the value was read from, us-gaap:Revenues." }),
  unit: z.string().meta({ description: "USD, USD/shares (EPS) or shares." }),
  value: z.number().nullable().meta({ description: "In `unit`; null when the filing reports several values for the period (see other_values)." }),
  other_values: z.array(z.number()).meta({ description: "The values a filing reports side by side for one period (share classes); empty normally." }),
  period_start: z.string().nullable().meta({ description: "Null for an instant (shares outstanding)." }),
  period_end: z.string(),
  duration_days: z.number().nullable(),
  fiscal_year: z.number().nullable(),
  fiscal_period: z.string().nullable().meta({ description: "FY or Q1-Q4 of the company's fiscal calendar." }),
  calendar_frame: z.string().nullable().meta({ description: "EDGAR's calendar frame: CY2024, CY2024Q3, CY2024Q3I (instant)." }),
  form: z.string().meta({ description: "The form of the filing the value comes from." }),
  filed: z.string(),
  accession_number: z.string(),
  first_filed: z.string().meta({ description: "When the period was first reported under `tag`, among the facts read." }),
  restated: z.boolean().meta({ description: "Whether a filing (up to as_of) reported a different value for this period." }),
});

export const secKeyFactsResponse = z.object({
  source: z.literal(SEC_SOURCE),
  as_of: z
    .string()
    .nullable()
    .meta({ description: "When EDGAR's document was retrieved (ISO 8601); null offline (the committed file's retrieval time is not known)." }),
  feedback: envelope.feedback,
  ticker: z.string().nullable(),
  cik: z.string(),
  company: z.string(),
  known_as_of: z.string().nullable().meta({ description: "The as_of parameter: facts filed after it were left out; null for the latest values." }),
  period: z.enum(["annual", "quarterly"]),
  units: z.record(z.string(), z.string()).meta({ description: "Each metric's unit." }),
  method: z.object({
    revenue_tags: z.array(z.string()).meta({ description: "Revenue's XBRL tags in the order tried, per period." }),
    forms: z.array(z.string()),
    selection: z.string(),
    periods: z.string(),
    fiscal_labels: z.string(),
  }),
  coverage: z.object({
    facts_filed_from: z.string().nullable().meta({ description: "The oldest filing date among the facts read." }),
    facts_filed_to: z.string().nullable(),
    not_reported: z.array(z.string()).meta({ description: "Metrics the company's facts do not report under any tag read." }),
    note: z.string().nullable(),
  }),
  total: z.number(),
  count: z.number(),
  facts: z.array(keyFactRow),
});

export const contract = {
  key: "sec_key_facts",
  method: "GET",
  path: "/api/v1/filings/{company}/key-facts",
  upstreamPath: "/filings/{company}/key-facts",
  summary: "Company earnings and revenue by fiscal year or quarter: net income, EPS and shares outstanding (SEC XBRL facts)",
  description:
    "Key financial facts a company reported to the SEC (XBRL company facts on EDGAR): revenue (sales), net income (earnings), " +
    "basic and diluted earnings per share and shares outstanding, per fiscal year or quarter, with units, the XBRL tag, the filing " +
    "(form, date, accession number), fiscal and calendar periods and restatements; point in time with as_of.",
  pathParams: secKeyFactsPath,
  query: secKeyFactsQuery,
  response: secKeyFactsResponse,
  keywords: [
    "revenue",
    "sales",
    "earnings",
    "eps",
    "income",
    "profit",
    "fundamentals",
    "financials",
    "xbrl",
    "sec",
    "edgar",
    "shares",
    "outstanding",
    "10-K",
    "10-Q",
    "point-in-time",
  ],
} satisfies OperationContract;
