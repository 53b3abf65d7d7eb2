// A data operation that exists only in tests, written as any operation folder is (contract.ts, its own source, its
// definition, README.md) and registered by a test with one line (`registerTestOperation(fixtureRates)`): that it then
// passes the operation conformance battery with no edit anywhere else is what shows a data operation is one folder plus
// one line. The worked example of docs/operations.md.
import { AppError } from "../../errors";
import { defineOperation } from "../../market/operations/operation";
import { contract, type SECURITY_TYPES } from "./contract";
import { embeddedRecordDates, fixtureRatesSource, type RatesOnDate } from "./rates-source";

type Query = { security_type?: (typeof SECURITY_TYPES)[number]; limit: number };

export const fixtureRates = defineOperation({
  contract,
  service: "us-macro-rates",
  meter: { key: "fixture_rates", title: "Treasury rates on a date (test fixture)", priceMicros: 10_000n },
  source: "us_treasury",
  goal: "treasury interest rates on a record date by security type",
  example: () => ({ path: { record_date: "2025-05-31" }, query: { security_type: "Marketable" } }),
  coverage(kind) {
    if (kind === "live") return { summary: "Live from the US Treasury's Fiscal Data API: any month-end record date it has published." };
    const dates = embeddedRecordDates();
    return {
      summary: `Offline data: record dates ${dates.join(", ")}. Another date answers 403 not_included.`,
      entities: dates.map((d) => ({ name: d, first_date: d, last_date: d })),
    };
  },
  run: ({ path, query }, ctx) => ratesOn(path.record_date, query, ctx.providers.family(fixtureRatesSource)),
  feed: {
    description: "The latest record date's rates, as GET /api/v1/fixture/rates/{record_date} returned them (test fixture)",
    entities: ["us_treasury"],
    fetch: (_entity, { providers }) => ratesOn("latest", { limit: 50 }, providers.family(fixtureRatesSource)),
    summarize: (p) => ({ record_date: (p as { record_date: string }).record_date, count: (p as { count: number }).count }),
  },
});

async function ratesOn(recordDate: string, q: Query, source: RatesOnDate) {
  const held = await source.ratesOn(recordDate);
  if (!held)
    throw new AppError("not_included", {
      reason: "timeframe_not_included",
      detail: `record date ${recordDate} is not included; held: ${source.recordDates()?.join(", ") ?? "the dates Fiscal Data has published"}`,
      extra: { record_date: recordDate },
    });
  const rows = held.rows.filter((r) => !q.security_type || r.security_type_desc === q.security_type).slice(0, q.limit);
  const rates = rows.map((r) => {
    const n = r.avg_interest_rate_amt === null || r.avg_interest_rate_amt === "" ? null : Number(r.avg_interest_rate_amt);
    return { security_type: r.security_type_desc, security: r.security_desc, avg_interest_rate: n !== null && Number.isFinite(n) ? n : null };
  });
  return {
    source: "us_treasury" as const,
    as_of: held.as_of,
    record_date: held.record_date,
    security_type: q.security_type ?? null,
    count: rates.length,
    rates,
  };
}
