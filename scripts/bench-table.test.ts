import { describe, expect, it } from "vitest";
import { renderBenchTable, replaceBenchTable, type BenchRun } from "./bench-table";

const RUN: BenchRun = {
  at: "2026-11-24T10:00:00.000Z",
  command: "npm run bench gateway",
  commit: "0123456789abcdef",
  host: "2 cores, node v22",
  rows: [
    { name: "upstream direct", n: 150, p50: 2.5, p99: 8, extra: { rps_8conn: 500 } },
    { name: "gateway | paid", n: 150, p50: 9.123, p99: 15, extra: { own_p50: "1.1", rps_8conn: 160 } },
  ],
  ratios: [{ name: "overhead", value: 3.649, of: "gateway | paid / upstream direct (p50)" }],
};

describe("the bench table", () => {
  it("is every row and ratio of the one run, named by its time and commit, pipes escaped", () => {
    const t = renderBenchTable(RUN);
    expect(t).toContain("`npm run bench gateway` at 2026-11-24T10:00:00.000Z, commit 0123456");
    expect(t).toContain("| upstream direct | 150 | 2.50 | 8.00 | rps_8conn=500 |");
    expect(t).toContain("| gateway \\| paid | 150 | 9.12 | 15.00 | own_p50=1.1 rps_8conn=160 |");
    expect(t).toContain("| overhead | 3.65x |");
  });

  it("replaces only what stands between the markers, and refuses a file without them", () => {
    const doc = "# Title\nbefore\n<!-- bench-table:start -->\nold table\n<!-- bench-table:end -->\nafter\n";
    expect(replaceBenchTable(doc, "NEW")).toBe("# Title\nbefore\n<!-- bench-table:start -->\nNEW\n<!-- bench-table:end -->\nafter\n");
    expect(replaceBenchTable("no markers", "NEW")).toBeNull();
    expect(replaceBenchTable("<!-- bench-table:end --> <!-- bench-table:start -->", "NEW")).toBeNull();
  });
});
