import { describe, expect, it } from "vitest";
import { ERROR_STATUS } from "../errors";
import { ERROR_EXPLANATIONS, explainFailure, explainRefusal } from "./explain-refusal";

describe("refusal explanations", () => {
  it("explain every error code with what it means and what the payer can do", () => {
    expect(Object.keys(ERROR_EXPLANATIONS).sort()).toEqual(Object.keys(ERROR_STATUS).sort());
    for (const [code, e] of Object.entries(ERROR_EXPLANATIONS)) {
      expect(e.meaning.length, code).toBeGreaterThan(5);
      expect(e.payerCanDo.length, code).toBeGreaterThan(3);
    }
  });

  it("prefer the reason that refines a code, and name unknown codes as they are", () => {
    expect(explainRefusal("payment_invalid", "challenge_expired").meaning).toMatch(/expired/);
    expect(explainRefusal("payment_invalid").meaning).toMatch(/refused/);
    expect(explainRefusal("brand_new_code", "why").meaning).toBe("Refused with brand_new_code (why).");
  });

  it("say why a payment was released or failed", () => {
    expect(explainFailure("upstream_error", "released").meaning).toMatch(/nothing was charged/);
    expect(explainFailure("abandoned: the serving instance stopped before the upstream answered", "released").meaning).toMatch(/stopped/);
    expect(explainFailure("transfer reverted", "failed").meaning).toBe("The payment did not settle (transfer reverted).");
  });
});
