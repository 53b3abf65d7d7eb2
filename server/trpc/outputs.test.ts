// Every console procedure declares what it returns, so a refactor of a domain function cannot silently change what
// the console receives (a missing field fails the type check; an unlisted one is stripped, never leaked).
import { describe, expect, it } from "vitest";
import { appRouter } from "./root";

describe("console procedures", () => {
  it("each declares an output schema", () => {
    const procedures = Object.entries(appRouter._def.procedures as unknown as Record<string, { _def: { output?: unknown } }>);
    expect(procedures.length).toBeGreaterThan(20);
    expect(procedures.filter(([, p]) => p._def.output === undefined).map(([path]) => path)).toEqual([]);
  });
});
