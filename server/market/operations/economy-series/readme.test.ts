// The coverage this folder's README states is the files' own: each held series' row (metadata, first and last date,
// rows, retrieval day, vintages) as the catalog and the series file give it. A data update that forgets the docs fails here.
import fs from "node:fs";
import path from "node:path";
import { expect, it } from "vitest";

const readme = fs.readFileSync(path.join(process.cwd(), "server/market/operations/economy-series/README.md"), "utf8");
const catalog = JSON.parse(fs.readFileSync(path.join(process.cwd(), "data/economy/catalog.json"), "utf8")) as Record<string, string>[];
const vintages = fs.readdirSync(path.join(process.cwd(), "data/economy/vintages"));

it.each(catalog.map((c) => [c.id!, c] as const))("README: %s", (id, c) => {
  const rows = fs
    .readFileSync(path.join(process.cwd(), "data/economy", c.file!), "utf8")
    .trim()
    .split("\n")
    .slice(1);
  const [first, last] = [rows[0]!.split(",")[0], rows.at(-1)!.split(",")[0]];
  const row = readme.split("\n").find((l) => l.startsWith(`| ${id} |`));
  expect(row).toBe(
    `| ${id} | ${c.title} | ${c.units}; ${c.frequency}; ${c.seasonal_adjustment} | ${row!.split(" | ")[3]} | ${first}..${last} | ` +
      `${rows.length.toLocaleString("en-US")} | ${c.retrieved} | ${vintages.includes(`${id}.csv`) ? "yes" : "no"} |`,
  );
});
