// npm run bench:table [-- --write FILE]: the last `npm run bench` run (bench-results/latest.json) as one markdown
// table, every row and ratio of that run and nothing else, so a table in the docs is always one run's. With --write,
// the table replaces what stands between `<!-- bench-table:start -->` and `<!-- bench-table:end -->` in FILE.
import fs from "node:fs";

type Row = { name: string; n: number; p50: number; p99: number; extra: Record<string, string | number> };
export type BenchRun = { at: string; command?: string; commit?: string; host?: string; rows: Row[]; ratios: { name: string; value: number; of: string }[] };

const START = "<!-- bench-table:start -->";
const END = "<!-- bench-table:end -->";

export function renderBenchTable(run: BenchRun): string {
  const cell = (s: string) => s.replace(/\|/g, "\\|");
  const extra = (r: Row) =>
    Object.entries(r.extra)
      .map(([k, v]) => `${k}=${v}`)
      .join(" ");
  const lines = [
    `One run: \`${run.command ?? "npm run bench"}\` at ${run.at}${run.commit ? `, commit ${run.commit.slice(0, 7)}${run.commit.slice(40)}` : ""}${run.host ? `, ${run.host}` : ""}.`,
    "",
    "| case | n | p50 ms | p99 ms | measured beside it |",
    "|---|---:|---:|---:|---|",
    ...run.rows.map((r) => `| ${cell(r.name)} | ${r.n} | ${r.p50.toFixed(2)} | ${r.p99.toFixed(2)} | ${cell(extra(r))} |`),
  ];
  if (run.ratios.length) {
    lines.push("", "| ratio (p50) | value | of |", "|---|---:|---|");
    for (const q of run.ratios) lines.push(`| ${cell(q.name)} | ${q.value.toFixed(2)}x | ${cell(q.of)} |`);
  }
  return lines.join("\n");
}

/** `text` with the table between the markers; null when the markers are missing or out of order. */
export function replaceBenchTable(text: string, table: string): string | null {
  const [a, b] = [text.indexOf(START), text.indexOf(END)];
  if (a < 0 || b < a) return null;
  return `${text.slice(0, a + START.length)}\n${table}\n${text.slice(b)}`;
}

function main() {
  const file = "bench-results/latest.json";
  if (!fs.existsSync(file)) {
    console.error(`${file} not found: run \`npm run bench\` first`);
    process.exit(1);
  }
  const table = renderBenchTable(JSON.parse(fs.readFileSync(file, "utf8")) as BenchRun);
  const i = process.argv.indexOf("--write");
  if (i < 0) return console.log(table);
  const target = process.argv[i + 1];
  const next = target ? replaceBenchTable(fs.readFileSync(target, "utf8"), table) : null;
  if (!target || next === null) {
    console.error(`--write needs a file holding ${START} and ${END}`);
    process.exit(1);
  }
  fs.writeFileSync(target, next);
  console.log(`wrote the table of ${file} into ${target}`);
}

if (process.argv[1]?.endsWith("bench-table.ts")) main();
