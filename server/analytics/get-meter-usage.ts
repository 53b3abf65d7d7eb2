// The Plans and meters page's usage chart: served calls per meter per day over a range (charged ones and those drawn
// on prepaid credit), so a seller sees what each meter, and so each plan covering it, is used for. Operations map to
// meters through the catalog; an operation no longer in the catalog (or a plan purchase) has no meter and is left out.
import { findSellerById } from "../catalog/catalog.queries";
import { getCatalog } from "../catalog/catalog";
import { AppError } from "../errors";
import { countCallsPerDayAndOperation } from "./analytics.queries";
import { rangeBuckets, resolveRange, type RangeInput } from "../lib/date-range";
import { findRolledThrough } from "./rollup.queries";

export async function getMeterUsage(sellerId: string, input: RangeInput = { preset: "30d" }, now: Date = new Date()) {
  const range = resolveRange(input, now);
  const seller = await findSellerById(sellerId);
  if (!seller) throw new AppError("seller_not_found");
  const [catalog, through] = await Promise.all([getCatalog(seller), findRolledThrough(sellerId)]);
  const rows = await countCallsPerDayAndOperation(sellerId, { start: range.start, end: range.end }, through);
  const meterOf = new Map(catalog.operations.map((o) => [o.key, o.meter?.key ?? null]));
  const meters = new Set<string>();
  const perDay = new Map<string, Record<string, number>>();
  for (const r of rows) {
    const meter = meterOf.get(r.operationKey);
    if (!meter) continue;
    meters.add(meter);
    const day = perDay.get(r.day) ?? {};
    day[meter] = (day[meter] ?? 0) + r.calls;
    perDay.set(r.day, day);
  }
  const meterKeys = [...meters].sort();
  return {
    range: { preset: range.preset, from: range.from, to: range.to, days: range.days },
    meters: meterKeys,
    // Every day of the range, zeros included, so the chart's axis is the range.
    days: rangeBuckets({ ...range, bucket: "day" }, now).map((day) => ({
      day,
      calls: Object.fromEntries(meterKeys.map((m) => [m, perDay.get(day)?.[m] ?? 0])),
    })),
    totals: Object.fromEntries(meterKeys.map((m) => [m, [...perDay.values()].reduce((s, d) => s + (d[m] ?? 0), 0)])),
  };
}
