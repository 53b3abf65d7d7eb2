// The congressional trades operation's contract: transactions members of Congress disclosed (periodic transaction
// reports), filtered by member, ticker, chamber, type, owner and date, sorted and paged. Zod only.
import { z } from "zod";
import { envelope, isoDate, queryInt, ticker } from "../../../contracts/common";
import type { OperationContract } from "../../../contracts/operations";

export const SENATE_SOURCE = "senate_efd" as const;

export const congressTradesQuery = z.object({
  member: z
    .string()
    .min(2)
    .max(80)
    .regex(/^[\p{L}\p{N} .,'-]+$/u, "must be a name (letters, spaces, . , ' -) or a Bioguide ID such as P000612")
    .optional()
    .meta({ description: "A member: words of the name, each a prefix of one of the member's names (Perdue, Mitch McConnell), or a Bioguide ID (P000612)." }),
  ticker: ticker.optional().meta({ description: "Only trades naming this symbol (an exchange names two: either matches)." }),
  chamber: z.enum(["senate", "house"]).optional().meta({ description: "senate or house. Default: every chamber held (see coverage)." }),
  from: isoDate.optional().meta({ description: "On or after this date (YYYY-MM-DD), of `date_field`." }),
  to: isoDate.optional().meta({ description: "On or before this date (YYYY-MM-DD), of `date_field`." }),
  date_field: z
    .enum(["transaction", "disclosure"])
    .default("transaction")
    .meta({ description: "Which date from/to filter: transaction (the trade; default) or disclosure (the day the chamber received the report)." }),
  type: z
    .enum(["purchase", "sale", "sale_full", "sale_partial", "exchange"])
    .optional()
    .meta({ description: "purchase, sale (full or partial), sale_full, sale_partial or exchange." }),
  owner: z.enum(["self", "spouse", "joint", "child"]).optional().meta({ description: "Whose account: self, spouse, joint or child." }),
  sort: z
    .enum(["disclosure_date", "transaction_date"])
    .default("disclosure_date")
    .meta({ description: "Sort key: disclosure_date (default) or transaction_date." }),
  order: z.enum(["desc", "asc"]).default("desc").meta({ description: "desc (newest first, default) or asc." }),
  limit: queryInt(1, 500).default(50).meta({ description: "Trades per page (1-500, default 50)." }),
  offset: queryInt(0, 100_000).default(0).meta({ description: "Trades to skip (paging): the previous page's `next_offset`." }),
});

export const tradeRow = z.object({
  transaction_date: z.string(),
  disclosure_date: z.string().meta({ description: "The day the chamber received the report." }),
  member: z.string(),
  bioguide_id: z.string().nullable(),
  chamber: z.enum(["senate", "house"]),
  owner: z.string().meta({ description: "Self, Spouse, Joint or Child, as reported." }),
  ticker: z.string().nullable().meta({ description: "The first symbol the report names; null for bonds, funds and private assets reported without one." }),
  tickers: z.array(z.string()).meta({ description: "Every symbol the report names (an exchange: given up, then received)." }),
  asset_description: z.string().meta({ description: "As reported (HTML of the eFD page turned into text)." }),
  asset_type: z.string(),
  transaction_type: z.string().meta({ description: "Purchase, Sale (Full), Sale (Partial) or Exchange, as reported." }),
  amount_range: z.string().meta({ description: "The range as published ($1,001 - $15,000): no exact amount is disclosed." }),
  amount_min: z.number().nullable().meta({ description: "The range's lower bound, USD." }),
  amount_max: z.number().nullable().meta({ description: "The range's upper bound, USD; null when open-ended." }),
  comment: z.string().nullable(),
  report_url: z.string().meta({ description: "The report on the chamber's disclosure site." }),
});

export const congressTradesResponse = z.object({
  source: z.literal(SENATE_SOURCE),
  as_of: z
    .string()
    .nullable()
    .meta({ description: "When the dataset was retrieved (ISO 8601); null offline (the committed file's retrieval time is not known)." }),
  feedback: envelope.feedback,
  attribution: z.string(),
  total: z.number().meta({ description: "Trades matching the filters." }),
  count: z.number(),
  offset: z.number(),
  next_offset: z.number().nullable(),
  coverage: z.object({
    chambers: z.array(z.string()),
    transaction_dates: z.object({ first: z.string().nullable(), last: z.string().nullable() }),
    disclosure_dates: z.object({ first: z.string().nullable(), last: z.string().nullable() }),
    note: z.string(),
  }),
  trades: z.array(tradeRow),
});

export const contract = {
  key: "congress_trades",
  method: "GET",
  path: "/api/v1/congress/trades",
  upstreamPath: "/congress/trades",
  summary: "Congressional stock trades: transactions senators disclosed (STOCK Act periodic transaction reports)",
  description:
    "Securities transactions members of Congress disclosed in periodic transaction reports: transaction and disclosure dates, " +
    "member, chamber, ticker, asset, type, owner and the amount range as published, by member, ticker, chamber and date, sorted and paged.",
  query: congressTradesQuery,
  response: congressTradesResponse,
  keywords: [
    "congress",
    "congressional",
    "senate",
    "senator",
    "senators",
    "house",
    "politician",
    "stock",
    "trades",
    "trading",
    "disclosure",
    "ptr",
    "stock act",
    "insider",
    "efd",
  ],
} satisfies OperationContract;
