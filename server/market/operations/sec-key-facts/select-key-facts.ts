// Key facts out of a company's XBRL company facts: one value per metric and period, chosen by rules an agent can
// state back (they are also written into every answer, `method`):
// - tags: revenue is the first of REVENUE_TAGS the company reports for that period (total revenues before the ASC 606
//   contract-revenue tag, which some companies use for net sales only, then the pre-2018 SalesRevenueNet); the other
//   metrics have one tag each;
// - forms: only periodic reports (10-K, 10-Q, their amendments and the foreign and transition forms); the same numbers
//   in proxy statements' pay-versus-performance tables or 8-Ks are not what a filer reports as its financials;
// - repetition: a period appears in every later filing that shows it as a comparative; the value served is the one in the
//   latest filing (by `filed`, then accession number), i.e. the latest restatement; `as_of` keeps only facts filed on or
//   before that date, so the answer is the value as it was known then; `first_filed` and `restated` say when the period
//   was first reported and whether a later filing changed it;
// - periods: annual = a duration of 350-380 days (52/53-week years), quarterly = 80-100 days; six- and nine-month
//   year-to-date facts are left out (Q4 is rarely reported on its own: the 10-K reports the year);
// - fiscal labels: EDGAR's `fy`/`fp` describe the filing, not the fact, so a period takes them from the first filing in
//   which it is the filing's own (latest) period; a period seen only as a comparative (first reported before the facts
//   held) has none (any of the metric's tags counts: a company may have changed tags since); `calendar_frame` is EDGAR's frame (CY2024, CY2024Q3, CY2024Q3I for an instant) where it assigns one.
import type { EdgarCompanyFacts, XbrlFact } from "../../providers/sec-edgar/sec-edgar-source";

export const METRICS = ["revenue", "net_income", "eps_basic", "eps_diluted", "shares_outstanding"] as const;
export type Metric = (typeof METRICS)[number];
export type Period = "annual" | "quarterly";

type Tag = { taxonomy: string; concept: string };
const usGaap = (concept: string): Tag => ({ taxonomy: "us-gaap", concept });

export const REVENUE_TAGS = [
  usGaap("Revenues"),
  usGaap("RevenueFromContractWithCustomerExcludingAssessedTax"),
  usGaap("RevenueFromContractWithCustomerIncludingAssessedTax"),
  usGaap("SalesRevenueNet"),
];

export const METRIC_DEFS: Record<Metric, { unit: string; tags: Tag[]; instant: boolean }> = {
  revenue: { unit: "USD", tags: REVENUE_TAGS, instant: false },
  net_income: { unit: "USD", tags: [usGaap("NetIncomeLoss")], instant: false },
  eps_basic: { unit: "USD/shares", tags: [usGaap("EarningsPerShareBasic")], instant: false },
  eps_diluted: { unit: "USD/shares", tags: [usGaap("EarningsPerShareDiluted")], instant: false },
  shares_outstanding: { unit: "shares", tags: [{ taxonomy: "dei", concept: "EntityCommonStockSharesOutstanding" }], instant: true },
};

export const PERIODIC_FORMS = ["10-K", "10-Q", "10-KT", "10-QT", "20-F", "40-F"].flatMap((f) => [f, `${f}/A`]);
const PERIODIC = new Set(PERIODIC_FORMS);
const ANNUAL_FORM = /^(10-K|10-KT|20-F|40-F)(\/A)?$/;

export const METHOD = {
  revenue_tags: REVENUE_TAGS.map((t) => `${t.taxonomy}:${t.concept}`),
  forms: PERIODIC_FORMS,
  selection:
    "One value per metric and period: the fact in the latest periodic report filed (by filing date, then accession number) " +
    "that shows the period, i.e. the latest restatement; with as_of, only facts filed on or before that date (a fact filed on " +
    "the as_of date counts as known).",
  periods:
    "annual: a duration of 350-380 days; quarterly: 80-100 days (six- and nine-month year-to-date facts are left out). " +
    "shares_outstanding is an instant from the report's cover page (annual: 10-K, quarterly: 10-Q), dated a few weeks after the period.",
  fiscal_labels:
    "fiscal_year and fiscal_period come from the first filing in which the period is the filing's own latest period (EDGAR's fy/fp " +
    "describe filings, not facts); null for a period seen only as a comparative. calendar_frame is EDGAR's calendar alignment " +
    "(CY2024 is the fiscal year mostly in calendar 2024).",
};

export type KeyFact = {
  metric: Metric;
  tag: string;
  unit: string;
  value: number | null;
  other_values: number[];
  period_start: string | null;
  period_end: string;
  duration_days: number | null;
  fiscal_year: number | null;
  fiscal_period: string | null;
  calendar_frame: string | null;
  form: string;
  filed: string;
  accession_number: string;
  first_filed: string;
  restated: boolean;
};

const DAY_MS = 86_400_000;
const durationDays = (f: XbrlFact) => (f.start ? Math.round((Date.parse(f.end) - Date.parse(f.start)) / DAY_MS) + 1 : null);
const later = (a: XbrlFact, b: XbrlFact) => a.filed.localeCompare(b.filed) || a.accn.localeCompare(b.accn);

function inPeriod(f: XbrlFact, period: Period, instant: boolean): boolean {
  if (instant) return !f.start && (period === "annual") === ANNUAL_FORM.test(f.form);
  const d = durationDays(f);
  if (d === null) return false;
  return period === "annual" ? d >= 350 && d <= 380 : d >= 80 && d <= 100;
}

/** Each accession's latest period end for one concept: the period that filing is about. */
function ownPeriodEnds(facts: XbrlFact[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const f of facts) if ((out.get(f.accn) ?? "") < f.end) out.set(f.accn, f.end);
  return out;
}

function fiscalLabel(byTag: { facts: XbrlFact[]; ownEnds: Map<string, string> }[], period: Period, instant: boolean, chosen: XbrlFact) {
  const own = instant ? [chosen] : byTag.flatMap(({ facts, ownEnds }) => facts.filter((f) => ownEnds.get(f.accn) === f.end)).sort(later);
  const first = own[0];
  if (!first || first.fy === null || !first.fp) return { fiscal_year: null, fiscal_period: null };
  const fp = instant ? first.fp : period === "annual" ? "FY" : first.fp === "FY" ? "Q4" : first.fp;
  return { fiscal_year: first.fy, fiscal_period: /^(FY|Q[1-4])$/.test(fp) ? fp : null };
}

/** The facts of one metric, newest period first; `asOf` keeps only facts filed on or before it. */
export function selectMetric(doc: EdgarCompanyFacts, metric: Metric, period: Period, asOf?: string): KeyFact[] {
  const def = METRIC_DEFS[metric];
  // EDGAR's frame describes the period, whichever filing carries it (sometimes only a proxy statement's copy).
  const frames = new Map<string, string>();
  const groups = new Map<string, { tag: Tag; facts: XbrlFact[]; ownEnds: Map<string, string> }>();
  // Every tag's facts of a period: its fiscal labels are the period's, whichever tag its own filing used.
  const anyTag = new Map<string, { facts: XbrlFact[]; ownEnds: Map<string, string> }[]>();
  for (const tag of def.tags) {
    const all = (doc.facts[tag.taxonomy]?.[tag.concept]?.units[def.unit] ?? []).filter((f) => {
      if (f.frame) frames.set(`${f.start ?? ""}|${f.end}`, f.frame);
      return PERIODIC.has(f.form);
    });
    const ownEnds = ownPeriodEnds(all);
    const byPeriod = new Map<string, XbrlFact[]>();
    for (const f of all) {
      if ((asOf && f.filed > asOf) || !inPeriod(f, period, def.instant)) continue;
      const key = `${f.start ?? ""}|${f.end}`;
      byPeriod.set(key, [...(byPeriod.get(key) ?? []), f]);
    }
    for (const [key, facts] of byPeriod) {
      // A period takes the first tag (in the metric's order) that reports it.
      if (!groups.has(key)) groups.set(key, { tag, facts, ownEnds });
      anyTag.set(key, [...(anyTag.get(key) ?? []), { facts, ownEnds }]);
    }
  }
  const out: KeyFact[] = [];
  for (const [key, { tag, facts }] of groups) {
    const sorted = [...facts].sort(later);
    const chosen = sorted.at(-1)!;
    // Several values in one filing for one period (share classes, which companyfacts does not tell apart): none is served.
    const inChosen = [...new Set(facts.filter((f) => f.accn === chosen.accn).map((f) => f.val))];
    out.push({
      metric,
      tag: `${tag.taxonomy}:${tag.concept}`,
      unit: def.unit,
      value: inChosen.length === 1 ? chosen.val : null,
      other_values: inChosen.length === 1 ? [] : inChosen,
      period_start: chosen.start ?? null,
      period_end: chosen.end,
      duration_days: durationDays(chosen),
      ...fiscalLabel(anyTag.get(key)!, period, def.instant, chosen),
      calendar_frame: frames.get(key) ?? null,
      form: chosen.form,
      filed: chosen.filed,
      accession_number: chosen.accn,
      first_filed: sorted[0]!.filed,
      restated: facts.some((f) => f.val !== chosen.val),
    });
  }
  return out.sort((a, b) => b.period_end.localeCompare(a.period_end) || (b.period_start ?? "").localeCompare(a.period_start ?? ""));
}

/** Whether the document reports the metric at all (any tag, any period). */
export function reportsMetric(doc: EdgarCompanyFacts, metric: Metric): boolean {
  const def = METRIC_DEFS[metric];
  return def.tags.some((t) => (doc.facts[t.taxonomy]?.[t.concept]?.units[def.unit]?.length ?? 0) > 0);
}
