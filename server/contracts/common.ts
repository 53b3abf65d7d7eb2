import { z } from "zod";

const DATE_RE = /^\d{4}-\d{2}-\d{2}$/;

/** A real calendar date written YYYY-MM-DD (2023-02-30 is refused). */
export const isoDate = z
  .string()
  .min(1)
  .regex(DATE_RE, "must be a date written YYYY-MM-DD")
  .refine((s) => {
    const d = new Date(`${s}T00:00:00Z`);
    return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
  }, "must be a real calendar date")
  .meta({ format: "date", example: "2024-01-02" });

/** Query booleans: true/false/1/0/yes/no/on/off. */
export const queryBool = z.stringbool();

/** Integers in a query string: digits only, no "1e3", no "1.0", no leading "+". */
export const queryInt = (min: number, max: number) =>
  z
    .string()
    .regex(/^-?\d{1,12}$/, "must be a whole number")
    .transform(Number)
    .pipe(z.number().int().min(min).max(max));

/** Decimal numbers in a query string. */
export const queryNumber = (opts: { min?: number; max?: number; gt?: number }) => {
  let n = z.number();
  if (opts.gt !== undefined) n = n.gt(opts.gt);
  if (opts.min !== undefined) n = n.min(opts.min);
  if (opts.max !== undefined) n = n.max(opts.max);
  return z
    .string()
    .regex(/^-?\d{1,12}(\.\d{1,12})?$/, "must be a decimal number")
    .transform(Number)
    .pipe(n);
};

export const ticker = z
  .string()
  .regex(/^[A-Z][A-Z0-9.\-]{0,9}$/, "must be an uppercase US-listed symbol such as AAPL or BRK.B")
  .meta({ example: "AAPL" });

export const feedback = z
  .object({
    free: z.boolean(),
    note: z.string(),
    method: z.literal("POST"),
    endpoint: z.string(),
  })
  .meta({ description: "How to send feedback on this response (free)." });

/** The common envelope of data responses (SERVICE.md part 1). */
export const envelope = {
  source: z.string().meta({ description: "Constant naming the data origin." }),
  as_of: z.string().meta({ description: "When the data was produced (ISO 8601)." }),
  feedback: feedback.optional(),
};
