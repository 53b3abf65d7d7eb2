// How the console prints values: the same on the server and in every browser (no locale, no time zone guessing).
import { railWords } from "@/server/contracts/payment-words";

/** 2025-01-02T03:04:05.678Z -> 2025-01-02 03:04:05 UTC */
export function utc(iso: string | null | undefined): string {
  if (!iso) return "—";
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)} UTC`;
}

/** For a column headed "(UTC)": 2025-01-02T03:04:05.678Z -> 2025-01-02 03:04:05; nothing -> "—". */
export function utcCell(iso: string | null | undefined): string {
  return iso ? utc(iso).replace(" UTC", "") : "—";
}

/** 0x1234567890abcdef... -> 0x1234…cdef (the full value goes in a title attribute). */
export function short(value: string, head = 6, tail = 4): string {
  return value.length <= head + tail + 1 ? value : `${value.slice(0, head)}…${value.slice(-tail)}`;
}

/**
 * "1234.500000" -> "$1,234.50"; "0.015000" -> "$0.015"; "-0.020000" -> "-$0.02". String arithmetic only: the value
 * is the server's exact six-decimal amount, shown with at least two decimals and no trailing zeros beyond them.
 */
export function usd(value: string | null | undefined): string {
  if (value === null || value === undefined) return "—";
  const neg = value.startsWith("-");
  const [whole = "0", frac = ""] = (neg ? value.slice(1) : value).split(".");
  const trimmed = frac.replace(/0+$/, "");
  const decimals = trimmed.length < 2 ? trimmed.padEnd(2, "0") : trimmed;
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return `${neg ? "-" : ""}$${grouped}.${decimals}`;
}

/** 1234 -> "1,234" */
export function count(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

/** A change against the previous period: "+12.5%", "-3.0%", or a dash when there was nothing before. */
export function change(percent: string | null): string {
  return percent === null ? "—" : `${percent}%`;
}

/** A chart's number from an exact amount string (display only: the labels and tables show the exact string). */
export function plot(value: string): number {
  return Number(value);
}

/** What the console calls an operation: its catalog key, except the storefront's own purchase operations. */
export function operationLabel(key: string | null | undefined): string {
  if (!key) return "—";
  if (key === "plan_purchase") return "Plan purchases";
  if (key === "plan_extend") return "Plan top-ups";
  return key;
}

/** What the console calls a rail (the registry's name is the protocol's): the shared words, a dash for none. */
export function railLabel(rail: string | null | undefined): string {
  return railWords(rail) || "—";
}

/** What the protocols are, in a line each (a seller meets the names in every table). */
export const RAIL_HELP: Record<string, string> = {
  x402: "x402: the agent pays in USDC from its wallet, answering the 402 with a signed transfer the storefront settles on chain.",
  "x402-batch": "x402 batch: the agent pays in USDC through a payment channel; many calls settle on chain in one claim.",
  mpp: "MPP (Machine Payments Protocol): the agent pays in USDC from its wallet, with a credential the storefront settles on chain.",
  card: "Card: a person paid on the hosted checkout, or the agent with a card token; charged by the card processor.",
  credits: "Prepaid credit: drawn from a plan the agent bought earlier; no money moves with the call.",
};

/** A bar's name on a category axis: `short` drawn, `full` on hover and in the tooltip, `operation` (a key) for specs and tools. */
export type AxisLabel = { short: string; full: string; operation?: string };

/** What fits on a chart's category axis (130 px) at the axis' 12 px (about 6.5 px a character, a little room for the tick line). */
const CATEGORY_CHARS = 19;

/** `text` cut at a word to fit a category axis, with an ellipsis when cut. */
export function fitAxis(text: string, max = CATEGORY_CHARS): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  const space = cut.lastIndexOf(" ");
  return `${(space > max / 2 ? cut.slice(0, space) : cut).replace(/[\s,;:]+$/, "")}…`;
}
