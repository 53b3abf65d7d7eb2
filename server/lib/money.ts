// Money is integer micro-USD (1 USD = 1_000_000 micros; USDC has 6 decimals, so 1 micro = 1 atomic unit).
// Never floats: decimals are parsed and printed with string arithmetic.

export const MICROS_PER_USD = 1_000_000n;
export const MICROS_PER_CENT = 10_000n;

/** 20000n -> "0.020000" (six decimals, as SERVICE.md part 8 prints prices). */
export function microsToUsd(micros: bigint): string {
  const neg = micros < 0n;
  const abs = neg ? -micros : micros;
  const whole = abs / MICROS_PER_USD;
  const frac = (abs % MICROS_PER_USD).toString().padStart(6, "0");
  return `${neg ? "-" : ""}${whole}.${frac}`;
}

/** 500000n -> "0.50" (whole cents, for purchase bounds). Rounds toward zero. */
export function microsToCents(micros: bigint): string {
  const cents = micros / MICROS_PER_CENT;
  const neg = cents < 0n;
  const abs = neg ? -cents : cents;
  return `${neg ? "-" : ""}${abs / 100n}.${(abs % 100n).toString().padStart(2, "0")}`;
}

/** For people: $0.02, $0.5 -> $0.50, $0.000123 keeps its digits. */
export function formatUsd(micros: bigint): string {
  const s = microsToUsd(micros);
  const [whole, frac = ""] = s.split(".");
  const trimmed = frac.replace(/0+$/, "");
  return `$${whole}.${trimmed.length < 2 ? trimmed.padEnd(2, "0") : trimmed}`;
}

const DECIMAL = /^(\d{1,12})(?:\.(\d{1,6}))?$/;

/** "0.02" -> 20000n. Returns null for anything that is not a plain non-negative decimal with at most 6 places. */
export function parseUsd(input: string): bigint | null {
  const m = DECIMAL.exec(input.trim());
  if (!m) return null;
  const whole = BigInt(m[1]!);
  const frac = BigInt((m[2] ?? "").padEnd(6, "0"));
  return whole * MICROS_PER_USD + frac;
}

/** Card payments start at $0.50 per call or purchase (SERVICE.md part 8). */
export const CARD_MINIMUM_MICROS = 500_000n;

/** Whether an amount can be paid by card (the 402 then carries a `card` block). */
export function cardEligible(micros: bigint): boolean {
  return micros >= CARD_MINIMUM_MICROS;
}

export function isWholeCents(micros: bigint): boolean {
  return micros % MICROS_PER_CENT === 0n;
}

const WEI_PER_ETH = 10n ** 18n;

/** 1234500000000000n wei -> "0.0012345" ETH (exact: trailing zeros dropped, at least one decimal). */
export function weiToEth(wei: bigint): string {
  const neg = wei < 0n;
  const abs = neg ? -wei : wei;
  const frac = (abs % WEI_PER_ETH).toString().padStart(18, "0").replace(/0+$/, "");
  return `${neg ? "-" : ""}${abs / WEI_PER_ETH}.${frac || "0"}`;
}

/** wei at a rate in micro-USD per ETH -> micro-USD, rounded half up (gas costs shown in USD at a rate the seller set). */
export function weiToMicros(wei: bigint, microsPerEth: bigint): bigint {
  return (wei * microsPerEth + WEI_PER_ETH / 2n) / WEI_PER_ETH;
}

/** 500000n -> 50 (a card processor's amount in cents); null when the amount is not whole cents (a card cannot charge it). */
export function microsToWholeCents(micros: bigint): number | null {
  return isWholeCents(micros) ? Number(micros / MICROS_PER_CENT) : null;
}
