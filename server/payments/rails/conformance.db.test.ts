/// <reference types="vite/client" />
// The conformance battery (server/testing/rail-conformance.ts) over every rail of the registry: each rail's folder
// holds a `conformance.test-kit.ts` saying how its clients pay, and a rail without one fails here.
import { describe, expect, it } from "vitest";
import type { RailKit } from "../../testing/rail-conformance";
import { describeRailConformance } from "../../testing/rail-conformance";
import { RAILS } from ".";

const found = import.meta.glob<RailKit>("./*/conformance.test-kit.ts", { eager: true, import: "kit" });
const kits = Object.values(found);

describe("every registered rail", () => {
  it("has a conformance kit in its folder", () => {
    expect(kits.map((k) => k.rail).sort()).toEqual(RAILS.map((r) => r.name).sort());
  });
});

describeRailConformance(kits);
