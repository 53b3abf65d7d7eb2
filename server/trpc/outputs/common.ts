// Pieces the console's output schemas share. Every procedure declares what it returns (`.output()`), so a refactor of a
// domain function cannot silently change what the console receives: a missing field fails the type check, an extra
// one is stripped. Money is a six-decimal USD string, times are ISO 8601 strings in UTC.
import { z } from "zod";
import { PAYMENT_STATES } from "../../contracts/payment-status";

export const usd = z.string().regex(/^-?\d+\.\d{6}$/);
export const iso = z.string();
export const percent = z.string().nullable();
export const paymentStatus = z.enum(PAYMENT_STATES);
export const rangeView = z.object({ preset: z.string(), from: z.string(), to: z.string(), days: z.number().int() });
export const explanation = z.object({ meaning: z.string(), payerCanDo: z.string(), setBy: z.literal("person").optional() });
