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
});
