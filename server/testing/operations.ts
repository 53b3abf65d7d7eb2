// Test helpers for the operations registry: an operation of a test's own, registered beside the built-in ones for one
// test file (the catalog seed, the upstream, the gateway, discovery and the archive see it). Production code cannot do
// this: only operations/index.ts and test helpers may import operations/registered.ts (architecture rule).
import { afterAll } from "vitest";
import { OPERATIONS, registrationProblem } from "../market/operations";
import type { DataOperation } from "../market/operations/operation";
import { registered } from "../market/operations/registered";

/** The keys of the operations this test file registered (the battery archives their feeds under their own names). */
export const testOperations = new Set<string>();

/** Register `op` for the rest of this test file, after the built-in operations (seed sellers after this call). */
export function registerTestOperation(op: DataOperation): void {
  const problem = registrationProblem(op, OPERATIONS);
  if (problem) throw new Error(`cannot register ${op.key}: ${problem}`);
  registered.push(op);
  testOperations.add(op.key);
  afterAll(() => {
    testOperations.delete(op.key);
    const i = registered.indexOf(op);
    if (i >= 0) registered.splice(i, 1);
  });
}
