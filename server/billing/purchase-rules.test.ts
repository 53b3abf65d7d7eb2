import { describe, expect, it } from "vitest";
import type { CatalogPlan } from "../catalog/catalog";
import { checkPurchaseAmount } from "./purchase-rules";

const credit: CatalogPlan = {
  id: "pln_1",
  slug: "c",
  name: "C",
  description: "",
  kind: "credit",
  minimumMicros: 5_000_000n,
  maximumMicros: 500_000_000n,
  creditValidityDays: 365,
  cardMinimumMicros: 500_000n,
  meterKeys: [],
};
const payg: CatalogPlan = { ...credit, id: "pln_2", kind: "payg", minimumMicros: null, maximumMicros: null, cardMinimumMicros: null };

describe("plan purchase amount rules (SERVICE.md part 7)", () => {
  it("accepts a whole-cent amount within bounds", () => {
    expect(checkPurchaseAmount(credit, { amountUsd: "25.00" })).toBe(25_000_000n);
    expect(checkPurchaseAmount(credit, { amountUsd: "5" })).toBe(5_000_000n);
  });
  it("names each broken rule", () => {
    const code = (f: () => unknown) => {
      try {
        f();
      } catch (e) {
        return (e as { code: string }).code;
      }
    };
    expect(code(() => checkPurchaseAmount(payg, { amountUsd: "5.00" }))).toBe("payg_not_purchasable");
    expect(code(() => checkPurchaseAmount(credit, {}))).toBe("amount_required");
    expect(code(() => checkPurchaseAmount(credit, { amountUsd: "5.001" }))).toBe("amount_not_cent_increment");
    expect(code(() => checkPurchaseAmount(credit, { amountUsd: "abc" }))).toBe("amount_not_cent_increment");
    expect(code(() => checkPurchaseAmount(credit, { amountUsd: "4.99" }))).toBe("amount_below_minimum");
    expect(code(() => checkPurchaseAmount(credit, { amountUsd: "500.01" }))).toBe("amount_above_maximum");
    expect(code(() => checkPurchaseAmount({ ...credit, minimumMicros: 100_000n }, { amountUsd: "0.40", checkout: true }))).toBe("amount_below_card_minimum");
  });
});
