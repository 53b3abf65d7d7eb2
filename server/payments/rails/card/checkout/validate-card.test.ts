import { describe, expect, it } from "vitest";
import { luhnValid } from "../../../../lib/luhn";
import { checkCardFields } from "./validate-card";

const NOW = new Date("2026-11-24T06:30:00Z");
const ok = { number: "4242 4242 4242 4242", expiry: "12 / 30", cvc: "123" };

describe("the card form's checks", () => {
  it("accepts a good card, normalised for the processor, and an optional email", () => {
    expect(checkCardFields(ok, NOW)).toEqual({ ok: true, card: { number: "4242424242424242", expMonth: 12, expYear: 2030, cvc: "123" }, email: null });
    expect(checkCardFields({ ...ok, expiry: "11/2026", email: " Payer@Example.com " }, NOW)).toMatchObject({
      ok: true,
      card: { expMonth: 11, expYear: 2026 },
      email: "payer@example.com",
    });
  });

  it("says month 13 is not a month, not that the card expired", () => {
    expect(checkCardFields({ ...ok, expiry: "13 / 30" }, NOW)).toEqual({ ok: false, errors: { expiry: "The month must be from 01 to 12." } });
    expect(checkCardFields({ ...ok, expiry: "00 / 30" }, NOW)).toMatchObject({ errors: { expiry: "The month must be from 01 to 12." } });
  });

  it("refuses a past expiry, and keeps a card valid to the end of its month", () => {
    expect(checkCardFields({ ...ok, expiry: "10 / 26" }, NOW)).toMatchObject({ errors: { expiry: "This card expired at the end of 10 / 26." } });
    expect(checkCardFields({ ...ok, expiry: "11 / 26" }, NOW).ok).toBe(true);
    expect(checkCardFields({ ...ok, expiry: "1226" }, NOW)).toMatchObject({ errors: { expiry: expect.stringContaining("MM / YY") } });
  });

  it("checks the number's Luhn digit and length", () => {
    expect(luhnValid("4242424242424242")).toBe(true);
    expect(luhnValid("4242424242424241")).toBe(false);
    expect(checkCardFields({ ...ok, number: "4242 4242 4242 4241" }, NOW)).toMatchObject({ errors: { number: expect.stringContaining("not valid") } });
    expect(checkCardFields({ ...ok, number: "4242 4242" }, NOW)).toMatchObject({ errors: { number: expect.stringContaining("12 to 19 digits") } });
    expect(checkCardFields({ ...ok, number: "4242 abcd 4242 4242" }, NOW)).toMatchObject({ errors: { number: "A card number has digits only." } });
  });

  it("wants 3 CVC digits, or 4 for American Express", () => {
    expect(checkCardFields({ ...ok, cvc: "12" }, NOW)).toMatchObject({ errors: { cvc: expect.stringContaining("3 digits") } });
    expect(checkCardFields({ ...ok, cvc: "1234" }, NOW)).toMatchObject({ errors: { cvc: expect.stringContaining("3 digits") } });
    expect(checkCardFields({ number: "3782 822463 10005", expiry: "12 / 30", cvc: "123" }, NOW)).toMatchObject({
      errors: { cvc: expect.stringContaining("4 digits") },
    });
    expect(checkCardFields({ number: "3782 822463 10005", expiry: "12 / 30", cvc: "1234" }, NOW).ok).toBe(true);
  });

  it("reports every bad field at once, and a malformed email", () => {
    const r = checkCardFields({ number: "1", expiry: "13/99", cvc: "", email: "not-an-email" }, NOW);
    expect(r.ok).toBe(false);
    expect(Object.keys((r as { errors: object }).errors).sort()).toEqual(["cvc", "email", "expiry", "number"]);
  });
});
