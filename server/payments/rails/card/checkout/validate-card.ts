// The card form's checks, the same in the browser (as the person types) and on the server (before the processor is
// asked): a clear message per field instead of a processor's decline ("month 13" is a typo, not an expired card).
// Pure: no I/O, safe to import from the page's client component. Only the on-page form takes a card; Stripe Checkout
// checks its own fields.
import type { EnteredCard } from "../processor/processor";
import { luhnValid } from "../../../../lib/luhn";

export type CardFields = { number: string; expiry: string; cvc: string; email?: string };
export type CardField = "number" | "expiry" | "cvc" | "email";
export type CardCheck = { ok: true; card: EnteredCard; email: string | null } | { ok: false; errors: Partial<Record<CardField, string>> };

export const VALID_EMAIL = /^[^\s@]{1,64}@[^\s@]+\.[^\s@]+$/;

/** American Express numbers start 34 or 37 and carry a four-digit code on the front. */
const isAmex = (digits: string) => /^3[47]/.test(digits);

export function checkCardFields(f: CardFields, now: Date = new Date()): CardCheck {
  const errors: Partial<Record<CardField, string>> = {};
  const digits = f.number.replace(/[\s-]/g, "");
  if (!digits) errors.number = "Enter the card number.";
  else if (!/^\d+$/.test(digits)) errors.number = "A card number has digits only.";
  else if (digits.length < 12 || digits.length > 19) errors.number = "A card number has 12 to 19 digits; check that none is missing.";
  else if (!luhnValid(digits)) errors.number = "This card number is not valid; check it for a mistyped digit.";

  let expMonth = 0;
  let expYear = 0;
  const m = /^\s*(\d{1,2})\s*\/\s*(\d{2}|\d{4})\s*$/.exec(f.expiry);
  if (!f.expiry.trim()) errors.expiry = "Enter the expiry date as MM / YY.";
  else if (!m) errors.expiry = "Enter the expiry date as MM / YY, for example 04 / 29.";
  else {
    expMonth = Number(m[1]);
    expYear = m[2]!.length === 2 ? 2000 + Number(m[2]) : Number(m[2]);
    const thisMonth = now.getUTCFullYear() * 12 + now.getUTCMonth();
    if (expMonth < 1 || expMonth > 12) errors.expiry = "The month must be from 01 to 12.";
    // A card is valid to the end of its expiry month.
    else if (expYear * 12 + (expMonth - 1) < thisMonth)
      errors.expiry = `This card expired at the end of ${String(expMonth).padStart(2, "0")} / ${String(expYear).slice(-2)}.`;
    else if (expYear > now.getUTCFullYear() + 20) errors.expiry = "That expiry year is too far ahead; check it.";
  }

  const cvc = f.cvc.trim();
  const cvcLength = isAmex(digits) ? 4 : 3;
  if (!/^\d+$/.test(cvc) || cvc.length !== cvcLength)
    errors.cvc = isAmex(digits)
      ? "The security code (CVC) of an American Express card is the 4 digits on its front."
      : "The security code (CVC) is the 3 digits on the back of your card.";

  const email = (f.email ?? "").trim().toLowerCase();
  if (email && (email.length > 254 || !VALID_EMAIL.test(email))) errors.email = "Enter an email address such as name@example.com, or leave it empty.";

  if (Object.keys(errors).length) return { ok: false, errors };
  return { ok: true, card: { number: digits, expMonth, expYear, cvc }, email: email || null };
}
