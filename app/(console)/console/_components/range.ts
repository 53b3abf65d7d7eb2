// A console URL's date range, read the same way by the server (its prefetch) and the browser (its queries), so the two
// ask for the same thing.

export type RangeParams = { preset: "today" | "mtd" | "7d" | "30d" | "90d" | "custom"; from?: string; to?: string };

const PRESETS = ["today", "mtd", "7d", "30d", "90d"] as const;

/** The date range in the URL: `?range=7d`, or `?from=2025-06-01&to=2025-06-02`; 30 days when none. */
export function rangeFrom(params: URLSearchParams, fallback: RangeParams["preset"] = "30d"): RangeParams {
  const from = params.get("from") ?? undefined;
  const to = params.get("to") ?? undefined;
  if (from && to) return { preset: "custom", from, to };
  const r = params.get("range");
  return { preset: (PRESETS as readonly string[]).includes(r ?? "") ? (r as RangeParams["preset"]) : fallback };
}
