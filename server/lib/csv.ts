// The console's CSV files (payments, refunds, customers, usage): RFC 4180 fields, headers in words, amounts in dollars
// and cents beside a currency column, times in UTC as a spreadsheet reads them. docs/console.md lists every file's columns.
import { microsToUsd } from "./money";

/** One CSV field: quoted when it holds a comma, quote, CR or LF; a leading =, +, - or @ is prefixed with ' (spreadsheet formula injection). */
export function csvField(v: string | number | null | undefined): string {
  if (v === null || v === undefined) return "";
  const s = String(v);
  const safe = /^[=+\-@\t\r]/.test(s) ? `'${s}` : s;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** One line of fields, CRLF-terminated. */
export function csvLine(fields: (string | number | null | undefined)[]): string {
  return fields.map(csvField).join(",") + "\r\n";
}

/**
 * An amount as a spreadsheet sums it: dollars and cents ("1.25", "0.50"), with more digits only where the amount has
 * them ("0.015" for a price of a cent and a half): never rounded, never micro-units. Negative amounts keep their sign
 * ("-0.02"), though no file writes one today.
 */
export function csvAmount(micros: bigint): string {
  const [whole, frac = ""] = microsToUsd(micros).split(".");
  const trimmed = frac.replace(/0+$/, "");
  return `${whole}.${trimmed.length < 2 ? trimmed.padEnd(2, "0") : trimmed}`;
}

/** The same from a six-decimal USD string as the console's domain functions return it ("1.250000" -> "1.25"). */
export function csvUsd(sixDecimals: string | null | undefined): string {
  if (!sixDecimals) return "";
  const neg = sixDecimals.startsWith("-");
  const [whole = "0", frac = ""] = (neg ? sixDecimals.slice(1) : sixDecimals).split(".");
  const trimmed = frac.replace(/0+$/, "");
  return `${neg ? "-" : ""}${whole}.${trimmed.length < 2 ? trimmed.padEnd(2, "0") : trimmed}`;
}

/** 2026-01-02T03:04:05.678Z -> 2026-01-02 03:04:05 (the column header says UTC). */
export function csvTime(iso: string | Date | null | undefined): string {
  if (!iso) return "";
  const s = typeof iso === "string" ? iso : iso.toISOString();
  return `${s.slice(0, 10)} ${s.slice(11, 19)}`;
}
