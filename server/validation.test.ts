// What a refused input is told: the parameter and the rule it broke in words, never zod's own sentence.
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { AppError } from "./errors";
import { parseWith } from "./validation";

const refusal = (schema: z.ZodType, input: unknown) => {
  try {
    parseWith(schema, input);
  } catch (e) {
    if (e instanceof AppError) return e.toBody();
    throw e;
  }
  throw new Error("accepted");
};

describe("parseWith", () => {
  it("an unknown tag of a discriminated union names the tags it takes", () => {
    const kinds = z.discriminatedUnion("type", [z.object({ type: z.literal("anonymous") }), z.object({ type: z.literal("refresh"), token: z.string() })]);
    for (const type of ["magic", 5, null])
      expect(refusal(kinds, { type })).toEqual({
        error: "invalid_request",
        reason: "invalid_parameter",
        parameter: "type",
        detail: "type must be one of anonymous, refresh",
      });
    // A known tag: the member's own rule, as before.
    expect(refusal(kinds, { type: "refresh" })).toMatchObject({ parameter: "token", detail: "token is required" });
  });

  it("an enum's value outside it names the values", () => {
    expect(refusal(z.object({ side: z.enum(["buy", "sell"]) }), { side: "hold" })).toMatchObject({
      parameter: "side",
      detail: "side must be one of buy, sell",
    });
  });
});
