// The console's size rules (issue 21): no file of the console or its read models over about 350 lines, no component
// (a top-level function of a .tsx file) over about 150, so a page stays a set of sections one can read on a screen.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../..");
const DIRS = ["app/(console)", "server/analytics", "server/trpc"];
const MAX_FILE = 350;
const MAX_COMPONENT = 150;

function files(dir: string): string[] {
  return fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = path.posix.join(dir, e.name);
    if (e.isDirectory()) return files(rel);
    return /\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) ? [rel] : [];
  });
}

/** Top-level functions of a file with their length in lines (from the declaration to the closing brace in column 0). */
export function functionLengths(text: string): { name: string; lines: number }[] {
  const out: { name: string; lines: number }[] = [];
  const lines = text.split("\n");
  let start: { name: string; at: number } | null = null;
  lines.forEach((l, i) => {
    const m = /^(?:export )?(?:async )?function (\w+)/.exec(l);
    if (!start && m) start = { name: m[1]!, at: i };
    else if (start && l.startsWith("}")) {
      out.push({ name: start.name, lines: i - start.at + 1 });
      start = null;
    }
  });
  return out;
}

describe("console sizes", () => {
  const all = DIRS.flatMap(files);

  it("finds the console's files", () => {
    expect(all.length).toBeGreaterThan(50);
  });

  it(`no file is over ${MAX_FILE} lines`, () => {
    const long = all.map((f) => ({ f, n: fs.readFileSync(path.join(ROOT, f), "utf8").split("\n").length })).filter((x) => x.n > MAX_FILE);
    expect(long).toEqual([]);
  });

  it(`no component is over ${MAX_COMPONENT} lines`, () => {
    const long = all
      .filter((f) => f.endsWith(".tsx"))
      .flatMap((f) => functionLengths(fs.readFileSync(path.join(ROOT, f), "utf8")).map((c) => ({ f, ...c })))
      .filter((c) => c.lines > MAX_COMPONENT);
    expect(long).toEqual([]);
  });

  it("measures a component from its declaration to its closing brace", () => {
    expect(functionLengths("export function A() {\n  return 1;\n}\nfunction B() {\n}\n")).toEqual([
      { name: "A", lines: 3 },
      { name: "B", lines: 2 },
    ]);
  });
});
