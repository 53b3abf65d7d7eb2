// The key facts answer: a company resolved by ticker or CIK, its company facts read, each metric selected by the rules of
// select-key-facts.ts, filtered by period end, newest first.
import { AppError, invalidParameter } from "../../../errors";
import type { EdgarCompanyFacts, SecEdgar } from "../../providers/sec-edgar/sec-edgar-source";
import { SEC_SOURCE } from "./contract";
import { METHOD, METRIC_DEFS, METRICS, reportsMetric, selectMetric, type Metric, type Period } from "./select-key-facts";

export type SecKeyFactsQuery = { metric?: Metric; period: Period; from?: string; to?: string; as_of?: string; limit: number };

/** The oldest and newest filing dates of every fact the operation reads. */
function filedSpan(doc: EdgarCompanyFacts): { from: string | null; to: string | null } {
  let from: string | null = null;
  let to: string | null = null;
  for (const def of Object.values(METRIC_DEFS))
    for (const t of def.tags)
      for (const f of doc.facts[t.taxonomy]?.[t.concept]?.units[def.unit] ?? []) {
        if (from === null || f.filed < from) from = f.filed;
        if (to === null || f.filed > to) to = f.filed;
      }
  return { from, to };
}

export async function getSecKeyFacts(id: string, q: SecKeyFactsQuery, edgar: SecEdgar) {
  if (q.from && q.to && q.from > q.to) throw invalidParameter("from", "from must be on or before to");
  const company = await edgar.company(id);
  const { facts: doc, retrievedAt } = await edgar.companyFacts(company);
  const span = filedSpan(doc);
  const offline = edgar.kind === "embedded";
  // Offline the facts are a slice (filed from a date on): a point in time before it is not held, never an empty answer.
  if (offline && q.as_of && span.from && q.as_of < span.from)
    throw new AppError("not_included", {
      reason: "timeframe_not_included",
      detail: `facts of ${doc.entityName} filed before ${span.from} are not held offline, so nothing is known as of ${q.as_of}`,
      extra: { cik: company.cik, coverage: { first_date: span.from, last_date: span.to } },
    });
  const metrics = q.metric ? [q.metric] : [...METRICS];
  const rows = metrics
    .flatMap((m) => selectMetric(doc, m, q.period, q.as_of))
    .filter((r) => (!q.from || r.period_end >= q.from) && (!q.to || r.period_end <= q.to))
    .sort((a, b) => b.period_end.localeCompare(a.period_end) || METRICS.indexOf(a.metric) - METRICS.indexOf(b.metric));
  const page = rows.slice(0, q.limit);
  const notes: string[] = [];
  if (offline && span.from)
    notes.push(`Offline, facts filed from ${span.from} on are held: a period reported only before then is missing, and first_filed is the first held filing.`);
  return {
    source: SEC_SOURCE,
    as_of: retrievedAt,
    ticker: company.ticker,
    cik: company.cik,
    company: doc.entityName,
    known_as_of: q.as_of ?? null,
    period: q.period,
    units: Object.fromEntries(metrics.map((m) => [m, METRIC_DEFS[m].unit])),
    method: METHOD,
    coverage: {
      facts_filed_from: span.from,
      facts_filed_to: span.to,
      not_reported: metrics.filter((m) => !reportsMetric(doc, m)),
      note: notes.join(" ") || null,
    },
    total: rows.length,
    count: page.length,
    facts: page,
  };
}
