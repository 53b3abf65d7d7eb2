// docs/events.md describes the events of server/contracts/events.ts: the same types, and for each the fields its data
// carries besides `object`. A type added to one and not the other fails here.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { EVENTS, EVENT_TYPES } from "./events";

const doc = fs.readFileSync(path.join(import.meta.dirname, "..", "..", "docs", "events.md"), "utf8");
const section = doc.slice(doc.indexOf("## Types"), doc.indexOf("## Webhooks"));
const rows = new Map(
  section
    .split("\n")
    .filter((l) => /^\| `[a-z_]+\.[a-z_]+` \|/.test(l))
    .map((l) => {
      const cells = l.split(" | ");
      return [cells[0]!.slice(3, -1), cells[cells.length - 1]!] as const;
    }),
);

describe("docs/events.md", () => {
  it("lists exactly the event types the code emits", () => {
    expect([...rows.keys()].sort()).toEqual([...EVENT_TYPES].sort());
  });

  it("names, for each type, the fields its data carries besides the object", () => {
    for (const type of EVENT_TYPES) {
      const extra = Object.keys((EVENTS[type].data as z.ZodObject).shape).filter((k) => k !== "object");
      for (const field of extra) expect(rows.get(type), `${type}: ${field}`).toContain(`\`${field}\``);
      if (!extra.length) expect(rows.get(type)!.replace(/\|/g, "").trim(), type).toBe("");
    }
  });
});
