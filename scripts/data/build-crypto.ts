// Builds data/crypto/daily/: Coinbase BTC-USD and ETH-USD daily bars (see data/crypto/SOURCES.md).
// Usage: npx tsx scripts/data/build-crypto.ts --mirror <folder of fetched snapshots>
import { mirrorDir, readSource, writeCsv, writeJson, type Source } from "./lib/source";

const TA4J = { repo: "ta4j/ta4j", commit: "42e1a941ebdf4f8b122b12ab65bfd012c6bee7f3" };
const RES = "ta4j-examples/src/main/resources";
const ETH_DAILY: Source = { ...TA4J, path: `${RES}/Coinbase-ETH-USD-PT1D-20160517_20260310.json` };
const BTC_4H: Source = { ...TA4J, path: `${RES}/Coinbase-BTC-USD-PT4H-20160518_20251028.json` };
// Coinbase's own daily candles for 2023-06-16..2023-10-11, the check of the 4-hour bucketing. (The later file of the
// same name with dates to 2023-10-20 is not used: its last nine candles carry round, made-up values.)
const BTC_DAILY_CHECK: Source = { repo: "ta4j/ta4j", commit: "d6cb699f7510036285e1330d6945be8cd02b9c6b", path: `${RES}/Coinbase-BTC-USD-PT1D-20230616_20231011.json` };

type Bar = [date: string, open: string, high: string, low: string, close: string, volume: string];
type Candle = { start: string; low: string; high: string; open: string; close: string; volume: string };

const utcDay = (epochSeconds: number) => new Date(epochSeconds * 1000).toISOString().slice(0, 10);
const NUM = /^\d+(\.\d+)?$/;

/** ta4j's own serialisation of Coinbase daily candles: raw number text per field (no float round trip). */
function ethDaily(text: string): Bar[] {
  const bars: Bar[] = [];
  const re = /"endTime": (\d+),\s*"openPrice": ([\d.]+),\s*"highPrice": ([\d.]+),\s*"lowPrice": ([\d.]+),\s*"closePrice": ([\d.]+),\s*"volume": ([\d.]+),\s*"amount": 0/g;
  for (const m of text.matchAll(re)) {
    const end = Number(m[1]);
    if (end % 86_400_000 !== 0) throw new Error(`bar end not at 00:00 UTC: ${end}`);
    bars.push([utcDay(end / 1000 - 86_400), m[2]!, m[3]!, m[4]!, m[5]!, m[6]!]);
  }
  if (bars.length !== (text.match(/"endTime"/g) ?? []).length) throw new Error("unparsed bars in the ETH file");
  return bars;
}

/** Volume strings have at most 8 decimals (Coinbase's base increment): summed exactly as integers of 1e-8. */
function addVolumes(vs: string[]): string {
  const units = vs.reduce((acc, v) => {
    const [i, f = ""] = v.split(".");
    if (f.length > 8) throw new Error(`volume with more than 8 decimals: ${v}`);
    return acc + BigInt(i!) * 100_000_000n + BigInt(f.padEnd(8, "0"));
  }, 0n);
  const s = units.toString().padStart(9, "0");
  return `${s.slice(0, -8)}.${s.slice(-8)}`.replace(/\.?0+$/, "");
}

/** 4-hour candles to UTC-day bars: first open, highest high, lowest low, last close, summed volume. */
function bucketDaily(candles: Candle[]): { bars: Bar[]; partial: { date: string; candles: number }[] } {
  const byDay = new Map<string, Candle[]>();
  for (const c of [...candles].sort((a, b) => Number(a.start) - Number(b.start))) {
    if (Number(c.start) % 14_400 !== 0) throw new Error(`candle not on a 4-hour boundary: ${c.start}`);
    for (const v of [c.open, c.high, c.low, c.close, c.volume]) if (!NUM.test(v)) throw new Error(`not a number: ${v}`);
    const day = utcDay(Number(c.start));
    byDay.set(day, [...(byDay.get(day) ?? []), c]);
  }
  const bars: Bar[] = [];
  const partial: { date: string; candles: number }[] = [];
  for (const [day, cs] of byDay) {
    if (cs.length !== 6) partial.push({ date: day, candles: cs.length });
    const high = cs.reduce((m, c) => (Number(c.high) > Number(m) ? c.high : m), cs[0]!.high);
    const low = cs.reduce((m, c) => (Number(c.low) < Number(m) ? c.low : m), cs[0]!.low);
    bars.push([day, cs[0]!.open, high, low, cs[cs.length - 1]!.close, addVolumes(cs.map((c) => c.volume))]);
  }
  return { bars, partial };
}

function checkAgainstDaily(bars: Bar[], daily: Candle[]): number {
  const byDate = new Map(bars.map((b) => [b[0], b]));
  for (const d of daily) {
    const b = byDate.get(utcDay(Number(d.start)));
    const want = [d.open, d.high, d.low, d.close, d.volume].map(Number);
    if (!b || b.slice(1).some((v, i) => Number(v) !== want[i])) throw new Error(`4-hour buckets differ from Coinbase's daily candle of ${utcDay(Number(d.start))}`);
  }
  return daily.length;
}

function main() {
  const mirror = mirrorDir();
  const eth = ethDaily(readSource(mirror, ETH_DAILY));

  const btc4h = (JSON.parse(readSource(mirror, BTC_4H)) as { candles: Candle[] }).candles;
  const { bars: bucketed, partial } = bucketDaily(btc4h);
  // The first and last days of the 4-hour file are cut by the request window, not by the market: left out.
  const first = bucketed[0]![0];
  const last = bucketed[bucketed.length - 1]![0];
  const btc = bucketed.filter((b) => b[0] !== first && b[0] !== last);
  const checked = checkAgainstDaily(btc, (JSON.parse(readSource(mirror, BTC_DAILY_CHECK)) as { candles: Candle[] }).candles);
  const interiorPartial = partial.filter((p) => p.date !== first && p.date !== last);

  const header = ["date", "open", "high", "low", "close", "volume"];
  const catalog = [
    { symbol: "BTC-USD", bars: btc, source: BTC_4H, granularity_in_source: "4 hours (bucketed to UTC days here)", partial_days: interiorPartial, checked_days: checked },
    { symbol: "ETH-USD", bars: eth, source: ETH_DAILY, granularity_in_source: "1 day", partial_days: [], checked_days: 0 },
  ].map(({ symbol, bars, ...rest }) => {
    for (let i = 1; i < bars.length; i++) if (bars[i]![0] <= bars[i - 1]![0]) throw new Error(`${symbol}: dates not increasing at ${bars[i]![0]}`);
    const rows = writeCsv(`data/crypto/daily/${symbol}.csv`, header, bars);
    console.log(`${symbol}.csv\t${bars[0]![0]}..${bars[rows - 1]![0]}\t${rows} rows`);
    return {
      symbol,
      file: `daily/${symbol}.csv`,
      venue: "Coinbase Exchange",
      quote_currency: "USD",
      units: { price: "USD per coin", volume: `${symbol.split("-")[0]} traded (base currency)` },
      day: "UTC calendar day (00:00-24:00 UTC)",
      first: bars[0]![0],
      last: bars[rows - 1]![0],
      rows,
      ...rest,
    };
  });
  writeJson("data/crypto/catalog.json", catalog);
}

main();
