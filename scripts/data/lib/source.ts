// Shared helpers for the data-shelf slicing scripts. They read files out of public repository snapshots (bare git
// directories laid out as <mirror>/<owner>+<name>/repo, as the search tool's `fetch` leaves them) at a pinned commit,
// and write slices under data/. Run by hand only: no build step or test imports this folder.
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";

export type Source = { repo: string; commit: string; path: string };

export const repoRoot = path.resolve(import.meta.dirname, "../../..");

/** `--mirror <dir>` (or SHELF_MIRROR): the folder holding the fetched snapshots. */
export function mirrorDir(argv: string[] = process.argv.slice(2)): string {
  const i = argv.indexOf("--mirror");
  const dir = i >= 0 ? argv[i + 1] : process.env.SHELF_MIRROR;
  if (!dir) throw new Error("usage: tsx scripts/data/<script>.ts --mirror <folder of fetched snapshots> (or SHELF_MIRROR=...)");
  return dir;
}

/** The bytes of one file of a snapshot at the pinned commit, as text (a leading BOM removed). */
export function readSource(mirror: string, src: Source): string {
  const gitDir = path.join(mirror, src.repo.replace("/", "+"), "repo");
  const text = execFileSync("git", ["--git-dir", gitDir, "show", `${src.commit}:${src.path}`], { encoding: "utf8", maxBuffer: 256 * 1024 * 1024 });
  return text.replace(/^\uFEFF/, "");
}

/** The commit time (ISO, committer date) of the last commit at or before `src.commit` that changed `src.path`. */
export function lastChanged(mirror: string, src: Source): string {
  const gitDir = path.join(mirror, src.repo.replace("/", "+"), "repo");
  return execFileSync("git", ["--git-dir", gitDir, "log", "-1", "--format=%cI", src.commit, "--", src.path], { encoding: "utf8" }).trim();
}

/** RFC 4180 CSV: quoted fields, doubled quotes, CRLF or LF line ends. Returns rows of raw strings (no trimming). */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") {
      row.push(field);
      field = "";
    } else if (c === "\n" || c === "\r") {
      if (c === "\r" && text[i + 1] === "\n") i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = "";
    } else field += c;
  }
  if (field !== "" || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}

function csvField(v: string | number | null): string {
  const s = v === null ? "" : String(v);
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** Writes a CSV (LF line ends, final newline) under the repository root; returns the row count. */
export function writeCsv(relPath: string, header: string[], rows: (string | number | null)[][]): number {
  const file = path.join(repoRoot, relPath);
  mkdirSync(path.dirname(file), { recursive: true });
  const lines = [header, ...rows].map((r) => r.map(csvField).join(","));
  writeFileSync(file, lines.join("\n") + "\n");
  return rows.length;
}

/** Writes compact JSON (one line, final newline) under the repository root. */
export function writeJson(relPath: string, value: unknown): void {
  const file = path.join(repoRoot, relPath);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(value) + "\n");
}

/**
 * A two-column date,value series (FRED's CSV, a fredapi dump, or a datahub file): the value string is kept exactly as
 * the source wrote it; FRED's "." and an empty cell both become "" (no observation that day). Rows before `from`
 * (an ISO date) are dropped.
 */
export function dateValueRows(text: string, from = "0000-00-00"): [string, string][] {
  const rows = parseCsv(text).slice(1);
  const out: [string, string][] = [];
  for (const r of rows) {
    if (r.length < 2 || r[0] === "") continue;
    const date = r[0]!;
    if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) throw new Error(`not an ISO date: ${date}`);
    if (date < from) continue;
    const v = r[1]!.trim();
    if (v !== "" && v !== "." && !/^-?\d+(\.\d+)?([eE][-+]?\d+)?$/.test(v)) throw new Error(`not a number: ${date},${v}`);
    out.push([date, v === "." ? "" : v]);
  }
  for (let i = 1; i < out.length; i++) if (out[i]![0] <= out[i - 1]![0]) throw new Error(`dates not increasing at ${out[i]![0]}`);
  return out;
}

/** First and last dates holding a value (empty rows ignored). */
export function valueRange(rows: [string, string][]): { first: string; last: string; values: number } {
  const held = rows.filter(([, v]) => v !== "");
  if (held.length === 0) throw new Error("series holds no value");
  return { first: held[0]![0], last: held[held.length - 1]![0], values: held.length };
}
