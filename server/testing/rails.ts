// Test helpers for the rails registry: a rail of a test's own, registered beside the built-in ones for one test file.
// Production code cannot do this: only rails/index.ts and test helpers may import rails/registry.ts (architecture rule).
import { afterAll } from "vitest";
import type { Rail } from "../payments/rails/rail";
import { registered } from "../payments/rails/registry";

/** Register `rail` for the rest of this test file (the gateway, discovery, the reconciler and the console see it). */
export function registerTestRail(rail: Rail): void {
  if (registered.some((r) => r.name === rail.name)) throw new Error(`a rail named "${rail.name}" is registered already`);
  registered.push(rail);
  afterAll(() => {
    const i = registered.indexOf(rail);
    if (i >= 0) registered.splice(i, 1);
  });
}
