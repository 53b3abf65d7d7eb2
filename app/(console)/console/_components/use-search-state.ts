"use client";

import { usePathname, useSearchParams } from "next/navigation";
import { useCallback, useState } from "react";

/**
 * A page's filters live in its URL, so every view can be bookmarked and shared: read them with `get`, change them with
 * `set` (empty values are removed). The URL is rewritten in place with history.replaceState, which Next.js's router
 * follows (useSearchParams) without a server round trip; each change starts from the address bar as it is now, so
 * several quick changes never undo one another, and Back leaves the page instead of stepping through filters.
 */
export function useSearchState() {
  const params = useSearchParams();
  const pathname = usePathname();
  const set = useCallback(
    (changes: Record<string, string | null | undefined>) => {
      const next = new URLSearchParams(window.location.search);
      for (const [k, v] of Object.entries(changes)) {
        if (v === null || v === undefined || v === "") next.delete(k);
        else next.set(k, v);
      }
      const q = next.toString();
      window.history.replaceState(null, "", q ? `${pathname}?${q}` : pathname);
    },
    [pathname],
  );
  return { params, get: (k: string) => params.get(k), set };
}

/**
 * One filter control's value: shown at once when changed (the URL follows a moment later, through the router), and
 * taken from the URL again whenever the URL changes on its own (Back, a link, "Clear filters").
 */
export function useSearchField(key: string): [string, (value: string) => void] {
  const { params, set } = useSearchState();
  const fromUrl = params.get(key) ?? "";
  const [seen, setSeen] = useState(fromUrl);
  const [value, setValue] = useState(fromUrl);
  if (fromUrl !== seen) {
    setSeen(fromUrl);
    setValue(fromUrl);
  }
  return [
    value,
    (v: string) => {
      setValue(v);
      set({ [key]: v });
    },
  ];
}

export type RangeParams = { preset: "today" | "7d" | "30d" | "90d" | "custom"; from?: string; to?: string };

const PRESETS = ["today", "7d", "30d", "90d"] as const;

/** The date range in the URL: `?range=7d`, or `?from=2025-06-01&to=2025-06-02`; 30 days when none. */
export function rangeFrom(params: URLSearchParams, fallback: RangeParams["preset"] = "30d"): RangeParams {
  const from = params.get("from") ?? undefined;
  const to = params.get("to") ?? undefined;
  if (from && to) return { preset: "custom", from, to };
  const r = params.get("range");
  return { preset: (PRESETS as readonly string[]).includes(r ?? "") ? (r as RangeParams["preset"]) : fallback };
}
