import { describe, expect, it } from "vitest";
import { diffAudit } from "./list-audit-log";

describe("audit diffs", () => {
  it("shows the fields a change touched, micro-USD amounts as USD", () => {
    expect(diffAudit({ meter: "basis", amountMicros: "50000" }, { meter: "basis", amountMicros: "75000" })).toEqual([
      { field: "amountMicros", before: "$0.050000", after: "$0.075000" },
    ]);
  });
  it("shows every field of an addition or a removal", () => {
    expect(diffAudit(null, { issuer: "https://x", enabled: true })).toEqual([
      { field: "issuer", before: "—", after: "https://x" },
      { field: "enabled", before: "—", after: "true" },
    ]);
    expect(diffAudit({ issuer: "https://x" }, null)).toEqual([{ field: "issuer", before: "https://x", after: "—" }]);
  });
  it("shows nested values as JSON", () => {
    expect(diffAudit({ explorerTxUrls: {} }, { explorerTxUrls: { "eip155:8453": "https://e/tx/{tx}" } })).toEqual([
      { field: "explorerTxUrls", before: "{}", after: '{"eip155:8453":"https://e/tx/{tx}"}' },
    ]);
  });
});
