// Rates as exact decimal arithmetic over the published strings: a product of published figures is exact (147.27 x
// 1.1772 = 173.366244, no binary noise), and the one division a reciprocal or a cross rate needs is done once, on the
// exact products, to 20 significant digits before it becomes a JSON number. Nothing is rounded to fewer digits.
type Dec = { digits: bigint; scale: number };

function parse(s: string): Dec {
  const m = /^(-?)(\d+)(?:\.(\d+))?$/.exec(s.trim());
  if (!m) throw new Error(`not a decimal: ${s}`);
  return { digits: BigInt(`${m[1]}${m[2]}${m[3] ?? ""}`), scale: (m[3] ?? "").length };
}

function product(values: string[]): Dec {
  return values.map(parse).reduce((a, b) => ({ digits: a.digits * b.digits, scale: a.scale + b.scale }), { digits: 1n, scale: 0 });
}

function toNumber(d: Dec): number {
  const neg = d.digits < 0n;
  const s = (neg ? -d.digits : d.digits).toString().padStart(d.scale + 1, "0");
  return Number(`${neg ? "-" : ""}${s.slice(0, s.length - d.scale)}.${s.slice(s.length - d.scale) || "0"}`);
}

const SIGNIFICANT = 20;

/** (product of `numerator`) / (product of `denominator`), from decimal strings; null when the denominator is zero. */
export function decimalRatio(numerator: string[], denominator: string[]): number | null {
  const n = product(numerator);
  const d = product(denominator);
  if (d.digits === 0n) return null;
  if (denominator.length === 0) return toNumber(n);
  // Scale the numerator so the integer quotient keeps SIGNIFICANT digits beyond the denominator's size.
  const extra = SIGNIFICANT + d.digits.toString().length;
  const q = (n.digits * 10n ** BigInt(extra)) / d.digits;
  return toNumber({ digits: q, scale: n.scale - d.scale + extra });
}
