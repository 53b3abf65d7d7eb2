// GET /api/v1/avg-interest-rates: the average interest rate the US Treasury pays on its debt, by security type, for the
// latest reported month. Its own source (treasury-rates.ts); archived daily.
import { defineOperation } from "../operation";
import { contract, TREASURY_SOURCE } from "./contract";
import { getAvgInterestRates } from "./get-avg-interest-rates";
import { embeddedTreasuryCoverage } from "./treasury-rates";

export const avgInterestRates = defineOperation({
  contract,
  service: "us-macro-rates",
  meter: { key: "avg_interest_rates", title: "Average interest rates", priceMicros: 10_000n },
  source: TREASURY_SOURCE,
  goal: "US treasury average interest rates on government debt",
  example: () => ({}),
  coverage(kind) {
    if (kind === "live")
      return {
        summary: "Live from the US Treasury's Fiscal Data API: the latest month it has reported (it reports monthly, some weeks after the month ends).",
      };
    const { recordDates, rows } = embeddedTreasuryCoverage();
    return {
      summary: `Offline data: Fiscal Data's answer for record dates ${recordDates.join(", ")}; the operation serves the latest, ${recordDates.at(-1)} (${rows} rows).`,
      entities: [{ name: "us_treasury", first_date: recordDates[0], last_date: recordDates.at(-1) }],
    };
  },
  run: (_params, ctx) => getAvgInterestRates({ providers: ctx.providers }),
  feed: {
    description: "US Treasury average interest rates by security type, as GET /api/v1/avg-interest-rates returned them",
    entities: ["us_treasury"],
    fetch: (_e, { providers }) => getAvgInterestRates({ providers }),
    summarize(p) {
      const r = p as { record_date: string | null; count: number; rates: { security: string; avg_interest_rate: number | null }[] };
      return {
        record_date: r.record_date,
        count: r.count,
        total_interest_bearing_debt_percent: r.rates.find((x) => x.security === "Total Interest-bearing Debt")?.avg_interest_rate ?? null,
      };
    },
  },
});
