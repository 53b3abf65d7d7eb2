import { z } from "zod";

const emailSchema = z.email();

/** Lower-cased, trimmed email, or null when it is not an address. */
export function normalizeEmail(input: string): string | null {
  const e = input.trim().toLowerCase();
  return e.length <= 254 && emailSchema.safeParse(e).success ? e : null;
}

/** `jane+agents@example.com`: refused at claim time (SERVICE.md part 5), one human must map to one address. */
export function isPlusAliased(email: string): boolean {
  const at = email.lastIndexOf("@");
  return at > 0 && email.slice(0, at).includes("+");
}
