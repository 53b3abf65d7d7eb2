// The upstream may report what a call consumed in a response header:
//
//   svc-usage: <meter>=<units>[, <meter>=<units> ...]     e.g. "svc-usage: aggregates=1"
//
// meter: a meter key of the seller's catalog; units: a positive integer. Absent header: one unit of the
// operation's meter. A malformed header is `invalid_usage_header`; a meter without a price is
// `usage_not_priced`. Either way the body is still returned, with `svc-usage-error`, and the caller is not
// charged (the call could not be billed; SERVICE.md part 7).
import type { CatalogMeter } from "../catalog/catalog";

export const USAGE_HEADER = "svc-usage";

export type Usage = { type: "ok"; units: Map<string, number> } | { type: "error"; code: "invalid_usage_header" | "usage_not_priced"; detail: string };

const ITEM = /^([a-z0-9_][a-z0-9_.-]{0,63})=(\d{1,9})$/;

export function parseUsageHeader(value: string | null, meters: CatalogMeter[], operationMeter: string | null): Usage {
  if (value === null) return { type: "ok", units: new Map(operationMeter ? [[operationMeter, 1]] : []) };
  const units = new Map<string, number>();
  const items = value.split(",").map((s) => s.trim());
  for (const item of items) {
    const m = ITEM.exec(item);
    if (!m || Number(m[2]) < 1 || units.has(m[1]!))
      return { type: "error", code: "invalid_usage_header", detail: `cannot parse ${USAGE_HEADER} item "${item.slice(0, 80)}"` };
    units.set(m[1]!, Number(m[2]));
  }
  for (const key of units.keys()) {
    const meter = meters.find((x) => x.key === key);
    if (!meter || meter.priceMicros === null) return { type: "error", code: "usage_not_priced", detail: `meter "${key}" has no price` };
  }
  return { type: "ok", units };
}
