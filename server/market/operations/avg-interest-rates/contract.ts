// The average interest rates operation's contract (SERVICE.md parts 2 and 4).
// Zod only (and the shared pieces in server/contracts): the upstream validates with it, OpenAPI and the MCP tool are
// generated from it, tests check responses against it. Any code may import it, a client bundle included.
import { z } from "zod";
import { envelope } from "../../../contracts/common";
import type { OperationContract } from "../../../contracts/operations";

/** `source` of this operation (SERVICE.md part 1: the one data response not named after the service). */
export const TREASURY_SOURCE = "us_treasury";

export const avgInterestRatesQuery = z.object({});
export const avgInterestRatesResponse = z.object({
  source: z.literal(TREASURY_SOURCE),
  as_of: z.string().nullable(),
  feedback: envelope.feedback,
  series: z.string(),
  unit: z.string(),
  record_date: z.string().nullable(),
  count: z.number(),
  rates: z.array(
    z.object({
      security_type: z.string(),
      security: z.string(),
      avg_interest_rate: z.number().nullable().meta({ description: "Percent." }),
    }),
  ),
});

export const contract = {
  key: "avg_interest_rates",
  method: "GET",
  path: "/api/v1/avg-interest-rates",
  upstreamPath: "/avg-interest-rates",
  summary: "Average interest rates on US Treasury debt, by security type",
  description:
    "The average interest rate the US Treasury pays on its outstanding debt for the latest reported month, in percent: " +
    "bills, notes, bonds, TIPS, FRNs, savings securities and the marketable and total aggregates (Fiscal Data).",
  query: avgInterestRatesQuery,
  response: avgInterestRatesResponse,
  keywords: ["treasury", "interest", "rates", "yield", "debt", "macro", "government", "bonds", "bills", "notes", "fiscal"],
} satisfies OperationContract;
