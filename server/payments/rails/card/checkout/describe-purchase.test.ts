import { describe, expect, it } from "vitest";
import type { Catalog } from "../../../../catalog/catalog";
import { describePurchase, purchasingCredential } from "./describe-purchase";

const meter = (key: string, title: string) => ({ id: `mtr_${key}`, key, title, unit: "request", includedUnits: 0, priceMicros: 20_000n, priceId: null });
const meters = [meter("aggregates", "Stock bars"), meter("archive", "Archive catalog")];
const catalog = {
  meters,
  operations: [
    { key: "aggregates", summary: "OHLCV bars for a ticker", meter: meters[0] },
    { key: "archive", summary: "The archive catalog", meter: meters[1] },
  ],
  plans: [
    {
      id: "pln_1",
      slug: "starter",
      name: "Starter credit",
      description: "",
      kind: "credit",
      minimumMicros: 1_000_000n,
      maximumMicros: 100_000_000n,
      cardMinimumMicros: 500_000n,
      creditValidityDays: 90,
      meterKeys: ["aggregates", "archive"],
    },
  ],
} as unknown as Catalog;
const purchase = {
  operationKey: "plan_purchase",
  method: "POST",
  path: "/plans/pln_1/purchase",
  query: "credential=agt_1&plan=pln_1",
  amountMicros: 10_000_000n,
};

describe("what a checkout says it buys", () => {
  it("a plan: the credit paid for, the meters and their operations, the validity; no request line", () => {
    const p = describePurchase(catalog, purchase, { status: "claimed", expiresAt: null });
    expect(p).toMatchObject({ kind: "plan", title: "Plan: Starter credit" });
    expect(p.plan).toEqual({
      name: "Starter credit",
      description: "",
      creditUsd: "10.000000",
      meters: [
        { key: "aggregates", title: "Stock bars", operations: ["OHLCV bars for a ticker"] },
        { key: "archive", title: "Archive catalog", operations: ["The archive catalog"] },
      ],
      validityDays: 90,
      unclaimedAgentExpiresAt: null,
      agentClaimed: true,
    });
  });

  it("warns when the buying agent is unclaimed: its credit dies with it", () => {
    const dies = new Date("2026-11-27T06:00:00Z");
    expect(describePurchase(catalog, purchase, { status: "unclaimed", expiresAt: dies }).plan!.unclaimedAgentExpiresAt).toBe(dies.toISOString());
    expect(purchasingCredential(purchase)).toBe("agt_1");
    expect(describePurchase(catalog, purchase, null).plan).toMatchObject({ unclaimedAgentExpiresAt: null, agentClaimed: null });
  });

  it("a data call: the request the agent made, no plan terms", () => {
    const call = { operationKey: "aggregates", method: "GET", path: "/api/v1/aggregates/AAPL", query: "from=2024-01-02" };
    expect(describePurchase(catalog, call)).toEqual({
      kind: "call",
      title: "OHLCV bars for a ticker",
      detail: "GET /api/v1/aggregates/AAPL?from=2024-01-02",
      plan: null,
    });
    expect(purchasingCredential(call)).toBeNull();
  });
});
