// Rules the console's forms share with the server: the browser checks a field as it is typed with the same schema the
// procedure validates with, so the message is instant and the same words either way (no round trip, no second copy of
// a rule). zod only: the console's client components import this file.
import { z } from "zod";

/** The most a meter may charge per request: $1,000, in micro-USD. */
export const MAX_PRICE_MICROS = 1_000_000_000n;

const PRICE = /^(\d{1,12})(?:\.(\d{1,6}))?$/;

/** A per-request price as a seller types it: dollars with at most six decimals, at most $1,000. */
export const consolePrice = z
  .string()
  .trim()
  .min(1, "Enter a price in dollars, such as 0.02.")
  .regex(PRICE, "A price is dollars with at most 6 decimals, such as 0.02 or 1.50 (no $ sign, no commas).")
  .refine((v) => {
    const m = PRICE.exec(v);
    return !m || BigInt(m[1]!) * 1_000_000n + BigInt((m[2] ?? "").padEnd(6, "0")) <= MAX_PRICE_MICROS;
  }, "A price is at most $1,000 per request.");

/** A custom range of UTC days as the console picks it: from and to, the end not before the start. */
export const consoleDayRange = z
  .object({ from: z.string().min(1, "Pick a start day."), to: z.string().min(1, "Pick an end day.") })
  .refine((r) => r.to >= r.from, { message: "The end day is before the start day: pick an end on or after the start.", path: ["to"] });

/** The first message of a failed check, for the field's one line of feedback. */
export function firstIssue(r: { success: boolean; error?: { issues: { message: string }[] } }): string | null {
  return r.success ? null : (r.error?.issues[0]?.message ?? "Not valid.");
}

const REFUND_AMOUNT = /^(\d{1,12})(?:\.(\d{1,2}))?$/;

/** Dollars and cents as typed ("2", "2.5", "2.50") in micro-USD, or null when it is not that shape. */
export function refundAmountMicros(v: string): bigint | null {
  const m = REFUND_AMOUNT.exec(v.trim());
  return m ? BigInt(m[1]!) * 1_000_000n + BigInt((m[2] ?? "").padEnd(2, "0")) * 10_000n : null;
}

/**
 * A partial refund's amount as a seller types it, checked against what is left to refund (micro-USD): dollars and whole
 * cents (the card processor refunds cents), more than zero, at most what is left. The server checks the same schema
 * under the payment's row lock, so a refund racing this one is refused there, never overshot.
 */
export function consoleRefundAmount(remainingMicros: bigint) {
  const left = `$${(Number(remainingMicros) / 1e6).toFixed(2)}`;
  return z
    .string()
    .trim()
    .min(1, "Enter the amount to refund, such as 2.50.")
    .regex(REFUND_AMOUNT, "An amount is dollars and cents, such as 2.50 (no $ sign, no commas).")
    .refine((v) => refundAmountMicros(v)! > 0n, "A refund is more than $0.00.")
    .refine((v) => refundAmountMicros(v)! <= remainingMicros, `At most ${left} is left to refund on this payment.`);
}
