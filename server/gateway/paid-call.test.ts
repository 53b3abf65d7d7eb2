import { describe, expect, it } from "vitest";
import { OPERATION_CONTRACTS } from "../contracts/operations";
import { parseQuery, parseWith } from "../validation";
import { MAX_PAID_TARGET } from "./paid-call";

// The longest value each parameter of a priced operation's contract accepts: the 12 digits queryInt and queryNumber
// take (leading zeros included), the longest enum member, a 64-character feed or entity (an entity of colons, which
// URLSearchParams writes as %3A). A parameter missing here fails the test: add its longest value.
const LONGEST: Record<string, string> = {
  ticker: "A.-.-.-.-.",
  feed: "a".repeat(64),
  entity: ":".repeat(64),
  multiplier: "000000050000",
  timespan: "quarter",
  from: "2024-01-02",
  to: "2024-12-31",
  date: "2024-01-02",
  adjusted: "disabled",
  sort: "desc",
  limit: "000000000366",
  strategy: "rsi_reversion",
  fast: "000000000200",
  slow: "000000000400",
  period: "000000000100",
  lower: "000000000098.999999999999",
  upper: "000000000098.999999999999",
  years: "000000000004.999999999999",
  capital: "000000009999.999999999999",
  min_basis: "000000000099.999999999999",
};

/** Path and query of the operation's longest valid request, as a client writes it (path values as they are, query as URLSearchParams). */
function longestTarget(key: string): string {
  const c = OPERATION_CONTRACTS[key]!;
  const pathParams: Record<string, string> = {};
  for (const name of Object.keys(c.pathParams?.shape ?? {})) pathParams[name] = LONGEST[name] ?? fail(key, name);
  const query = new URLSearchParams();
  for (const name of Object.keys(c.query?.shape ?? {})) query.set(name, LONGEST[name] ?? fail(key, name));
  // Each value is one the contract takes: the bound below is about valid requests, not ones refused with a 400.
  if (c.pathParams) parseWith(c.pathParams, pathParams);
  if (c.query) parseQuery(c.query, query);
  const path = c.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(pathParams[name]!));
  return `${path}${query.size ? `?${query}` : ""}`;
}

function fail(key: string, name: string): never {
  throw new Error(`${key}: no longest value for parameter ${name}`);
}

describe("MAX_PAID_TARGET", () => {
  const priced = Object.values(OPERATION_CONTRACTS).filter((c) => c.path.startsWith("/api/v1/"));

  it("covers the priced operations (every /api/v1 contract)", () => {
    expect(priced.map((c) => c.key).sort()).toEqual([
      "aggregates",
      "archive_catalog",
      "archive_day",
      "archive_range",
      "avg_interest_rates",
      "backtest",
      "basis",
    ]);
  });

  it.each(priced.map((c) => c.key))("%s: its longest valid request fits, with room to spare", (key) => {
    const target = longestTarget(key);
    expect(target.length).toBeLessThanOrEqual(MAX_PAID_TARGET * 0.75);
  });

  it("the longest of them is the archive range (about 340 bytes)", () => {
    const lengths = priced.map((c) => [c.key, longestTarget(c.key).length] as const).sort((a, b) => b[1] - a[1]);
    expect(lengths[0]![0]).toBe("archive_range");
    expect(lengths[0]![1]).toBeGreaterThan(300);
  });
});
