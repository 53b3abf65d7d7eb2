// The fixture operation's contract: the US Treasury's average interest rates on one record date, by security type.
// Zod only (and the shared pieces in server/contracts), like every operation's contract.ts.
import { z } from "zod";
import { envelope, isoDate, queryInt } from "../../contracts/common";
import type { OperationContract } from "../../contracts/operations";

export const SECURITY_TYPES = ["Marketable", "Non-marketable", "Interest-bearing Debt"] as const;

export const fixtureRatesPath = z.object({
  record_date: isoDate.meta({ description: "A month-end record date the Treasury reported (YYYY-MM-DD); coverage lists those held." }),
});
export const fixtureRatesQuery = z.object({
  security_type: z.enum(SECURITY_TYPES).optional().meta({ description: "Only this security type. Default: all three." }),
  limit: queryInt(1, 50).default(50).meta({ description: "Maximum rows returned, in the Treasury's line order." }),
});
export const fixtureRatesResponse = z.object({
  source: z.literal("us_treasury"),
  as_of: z.string().nullable().meta({ description: "When the data was retrieved (ISO 8601); null for the committed file, whose retrieval time is not known." }),
  feedback: envelope.feedback,
  record_date: z.string(),
  security_type: z.enum(SECURITY_TYPES).nullable(),
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
  key: "fixture_rates",
  method: "GET",
  path: "/api/v1/fixture/rates/{record_date}",
  upstreamPath: "/fixture/rates/{record_date}",
  summary: "Average interest rates on US Treasury debt on one record date (test fixture)",
  description:
    "The average interest rate the US Treasury paid on each kind of its debt at the end of one reported month, in percent, " +
    "optionally one security type only (Fiscal Data). A test-only operation: the worked example of docs/operations.md.",
  pathParams: fixtureRatesPath,
  query: fixtureRatesQuery,
  response: fixtureRatesResponse,
  keywords: ["treasury", "rates", "record", "month", "debt"],
} satisfies OperationContract;
