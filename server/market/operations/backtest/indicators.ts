// Indicators over a close series. Each returns an array aligned with the input, null until defined, and
// value i depends only on inputs 0..i (no lookahead).

/** Simple moving average of `period` values. */
export function sma(values: readonly number[], period: number): (number | null)[] {
  const out: (number | null)[] = new Array(values.length).fill(null);
  let sum = 0;
  for (let i = 0; i < values.length; i++) {
    sum += values[i]!;
    if (i >= period) sum -= values[i - period]!;
    if (i >= period - 1) out[i] = sum / period;
  }
  return out;
}

/**
 * Wilder's RSI: the first average gain/loss is the simple mean of the first `period` changes, then
 * avg = (avg x (period - 1) + current) / period. First value at index `period` (as Tulip Indicators' ti_rsi).
 */
export function rsiWilder(values: readonly number[], period: number): (number | null)[] {
  const out: (number | null)[] = new Array(values.length).fill(null);
  if (values.length <= period) return out;
  let up = 0;
  let down = 0;
  for (let i = 1; i <= period; i++) {
    const ch = values[i]! - values[i - 1]!;
    if (ch > 0) up += ch;
    else down -= ch;
  }
  up /= period;
  down /= period;
  const value = () => (up + down === 0 ? 50 : (100 * up) / (up + down));
  out[period] = value();
  for (let i = period + 1; i < values.length; i++) {
    const ch = values[i]! - values[i - 1]!;
    up = (up * (period - 1) + (ch > 0 ? ch : 0)) / period;
    down = (down * (period - 1) + (ch < 0 ? -ch : 0)) / period;
    out[i] = value();
  }
  return out;
}
