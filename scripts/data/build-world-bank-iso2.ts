// Builds data/world-bank/iso2.csv: the ISO 3166-1 alpha-2 code of each economy in countries.csv that has one, so the
// World Bank operation can take "US" as well as "USA" (see data/world-bank/SOURCES.md). Reads the committed
// countries.csv and datasets/country-codes at its pinned commit.
// Usage: npx tsx scripts/data/build-world-bank-iso2.ts --mirror <folder of fetched snapshots>
import { readFileSync } from "node:fs";
import path from "node:path";
import { mirrorDir, parseCsv, readSource, repoRoot, writeCsv, type Source } from "./lib/source";

const ISO_SOURCE: Source = { repo: "datasets/country-codes", commit: "caa72d1e0e5af8876c170bb36a9e4d64a01bba88", path: "data/country-codes.csv" };

function main() {
  const [header, ...rows] = parseCsv(readSource(mirrorDir(), ISO_SOURCE));
  const a3 = header!.indexOf("ISO3166-1-Alpha-3");
  const a2 = header!.indexOf("ISO3166-1-Alpha-2");
  if (a3 < 0 || a2 < 0) throw new Error("country-codes.csv: ISO columns missing");
  const alpha2 = new Map<string, string>();
  for (const r of rows) {
    const [three, two] = [r[a3]?.trim(), r[a2]?.trim()];
    if (three && two && /^[A-Z]{3}$/.test(three) && /^[A-Z]{2}$/.test(two)) alpha2.set(three, two);
  }
  const [, ...countries] = parseCsv(readFileSync(path.join(repoRoot, "data/world-bank/countries.csv"), "utf8"));
  const out = countries
    .filter((c) => c[0] && c[2] === "true" && alpha2.has(c[0]))
    .map((c) => [alpha2.get(c[0]!)!, c[0]!])
    .sort((x, y) => (x[0]! < y[0]! ? -1 : 1));
  if (new Set(out.map((r) => r[0])).size !== out.length) throw new Error("two economies share an alpha-2 code");
  const n = writeCsv("data/world-bank/iso2.csv", ["iso2", "country_code"], out);
  console.log(`iso2.csv\t${n} codes; ISO economies without an alpha-2 code: ${countries.filter((c) => c[2] === "true" && !alpha2.has(c[0]!)).map((c) => c[0]).join(" ") || "none"}`);
}

main();
