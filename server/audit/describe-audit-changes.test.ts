import { describe, expect, it } from "vitest";
import { describeAuditChanges } from "./list-audit-log";

describe("audit changes for people", () => {
  it("labels fields and shows money in dollars to the cent, or more digits when the price has them", () => {
    expect(describeAuditChanges("price", { meter: "basis", amountMicros: "50000" }, { meter: "basis", amountMicros: "75000" })).toEqual([
      { field: "amountMicros", label: "Price", before: "$0.05", after: "$0.075", format: "text" },
    ]);
    expect(describeAuditChanges("plan", { maximumMicros: "40000000", meters: ["a"] }, { maximumMicros: "60000000", meters: ["a", "b"] })).toEqual([
      { field: "maximumMicros", label: "Maximum purchase", before: "$40.00", after: "$60.00", format: "text" },
      { field: "meters", label: "Meters covered", before: "a", after: "a, b", format: "text" },
    ]);
  });

  it("names networks by chain, flags as yes or no, and marks a payment's state for the state labels", () => {
    expect(describeAuditChanges("seller_settings", { explorerTxUrls: {} }, { explorerTxUrls: { "eip155:8453": "" } })[0]).toMatchObject({
      before: "defaults",
      after: "Base: no link",
    });
    expect(describeAuditChanges("trusted_identity_provider", { enabled: true }, { enabled: false })[0]).toMatchObject({
      label: "Enabled",
      before: "yes",
      after: "no",
    });
    expect(describeAuditChanges("payment", { status: "consumed" }, { status: "refunded" })[0]).toMatchObject({ label: "State", format: "payment_state" });
  });

  it("says every stored state, role, rail and time in words, never the code's names", () => {
    const card = describeAuditChanges(
      "payment",
      { status: "consumed", amountMicros: "2000000", refundedMicros: "0" },
      { status: "partially_refunded", amountMicros: "500000", refundedMicros: "500000", rail: "card" },
    );
    expect(card.map((f) => [f.label, f.before, f.after])).toEqual([
      ["State", "Succeeded", "Partially refunded"],
      ["Amount", "$2.00", "$0.50"],
      ["Refunded in total", "$0.00", "$0.50"],
      ["Rail", "—", "Card"],
    ]);
    expect(describeAuditChanges("plan", { status: "live" }, { status: "retired" })[0]).toMatchObject({ before: "Live", after: "Retired" });
    expect(
      describeAuditChanges("webhook_endpoint", { status: "enabled", eventTypes: [] }, { status: "disabled", eventTypes: ["payment.settled"] }),
    ).toMatchObject([
      { label: "State", before: "Enabled", after: "Disabled" },
      { label: "Events", before: "all events", after: "payment.settled" },
    ]);
    expect(describeAuditChanges("seller_user", { role: "owner" }, { role: "viewer" })[0]).toMatchObject({ label: "Role", before: "Owner", after: "Viewer" });
    expect(describeAuditChanges("webhook_endpoint", null, { previousSecretValidUntil: "2026-01-02T03:04:05.678Z" })[0]).toMatchObject({
      label: "Previous secret valid until",
      after: "2026-01-02 03:04:05 UTC",
    });
    expect(describeAuditChanges("plan", { thresholdUsd: null }, { thresholdUsd: "5.000000" })[0]).toMatchObject({
      label: "Credit alert below",
      after: "$5.00",
    });
    expect(
      describeAuditChanges("seller_settings", { creditLeaseCalls: null, creditLeaseMs: 5000 }, { creditLeaseCalls: 0, creditLeaseMs: 1500 }).map((f) => [
        f.label,
        f.before,
        f.after,
      ]),
    ).toEqual([
      ["Calls per lease", "the default", "0 (no leases)"],
      ["Seconds per lease", "5 s", "1.5 s"],
    ]);
    // A field no label names yet still reads as words.
    expect(describeAuditChanges("seller_settings", { someNewField: "a" }, { someNewField: "b" })[0]!.label).toBe("Some new field");
  });
});
