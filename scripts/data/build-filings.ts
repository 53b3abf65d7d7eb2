// Builds data/filings/: SEC EDGAR `submissions` and `companyfacts` JSON for a few large companies, sliced but in
// EDGAR's own shape (see data/filings/SOURCES.md). Usage: npx tsx scripts/data/build-filings.ts --mirror <folder of fetched snapshots>
import { mirrorDir, readSource, writeJson, type Source } from "./lib/source";

const REPO = { repo: "annanyashah9/accounting-redflag-screen", commit: "471d15ece09c5bc51073932e14adefff1a5d043a" };

// Filings index kept from this filing date on; facts kept when filed on or after FACTS_FROM.
const FILINGS_FROM = "2024-01-01";
const FACTS_FROM = "2019-01-01";

const COMPANIES: { cik: string; name: string; facts: boolean }[] = [
  { cik: "0000320193", name: "Apple", facts: true },
  { cik: "0000789019", name: "Microsoft", facts: false }, // its companyfacts file is over the snapshot size limit
  { cik: "0000104169", name: "Walmart", facts: true },
  { cik: "0000909832", name: "Costco", facts: true },
  { cik: "0000354950", name: "Home Depot", facts: true },
  { cik: "0000320187", name: "Nike", facts: true },
];

const CONCEPTS: Record<string, string[]> = {
  dei: ["EntityCommonStockSharesOutstanding"],
  "us-gaap": [
    "Revenues",
    "RevenueFromContractWithCustomerExcludingAssessedTax",
    "SalesRevenueNet",
    "NetIncomeLoss",
    "EarningsPerShareBasic",
    "EarningsPerShareDiluted",
  ],
};

type Recent = Record<string, unknown[]>;
type Fact = { filed: string } & Record<string, unknown>;
type Concept = { label: string; description: string; units: Record<string, Fact[]> };

function sliceSubmissions(json: { filings: { recent: Recent; files: unknown[] } } & Record<string, unknown>) {
  const recent = json.filings.recent;
  const dates = recent.filingDate as string[];
  const keep = dates.map((d, i) => (d >= FILINGS_FROM ? i : -1)).filter((i) => i >= 0);
  const lengths = new Set(Object.values(recent).map((a) => a.length));
  if (lengths.size !== 1) throw new Error("filings.recent arrays differ in length");
  const sliced: Recent = Object.fromEntries(Object.entries(recent).map(([k, arr]) => [k, keep.map((i) => arr[i])]));
  return { json: { ...json, filings: { recent: sliced, files: json.filings.files } }, kept: keep.length, total: dates.length };
}

function sliceFacts(json: { cik: number; entityName: string; facts: Record<string, Record<string, Concept>> }) {
  const facts: Record<string, Record<string, Concept>> = {};
  let n = 0;
  for (const [taxonomy, names] of Object.entries(CONCEPTS)) {
    for (const name of names) {
      const c = json.facts[taxonomy]?.[name];
      if (!c) continue;
      const units = Object.fromEntries(
        Object.entries(c.units)
          .map(([u, list]) => [u, list.filter((f) => f.filed >= FACTS_FROM)] as const)
          .filter(([, list]) => list.length > 0),
      );
      const count = Object.values(units).reduce((s, l) => s + l.length, 0);
      if (count === 0) continue;
      n += count;
      (facts[taxonomy] ??= {})[name] = { ...c, units };
    }
  }
  return { json: { cik: json.cik, entityName: json.entityName, facts }, facts: n };
}

function main() {
  const mirror = mirrorDir();
  for (const co of COMPANIES) {
    const subSrc: Source = { ...REPO, path: `data/submissions/CIK${co.cik}.json` };
    const sub = sliceSubmissions(JSON.parse(readSource(mirror, subSrc)));
    writeJson(`data/filings/submissions/CIK${co.cik}.json`, sub.json);
    let line = `${co.name}\tsubmissions ${sub.kept}/${sub.total} filings`;
    if (co.facts) {
      const factSrc: Source = { ...REPO, path: `data/companyfacts/CIK${co.cik}.json` };
      const f = sliceFacts(JSON.parse(readSource(mirror, factSrc)));
      writeJson(`data/filings/companyfacts/CIK${co.cik}.json`, f.json);
      line += `\tcompanyfacts ${f.facts} facts in ${Object.values(f.json.facts).reduce((s, t) => s + Object.keys(t).length, 0)} concepts`;
    }
    console.log(line);
  }
}

main();
