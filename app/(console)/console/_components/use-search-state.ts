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

/**
 * A text field kept in the URL only when committed (Enter, leaving the field), so typing does not query per keystroke;
 * taken from the URL again whenever the URL changes on its own ("Clear filters", Back).
 */
export function useCommittedSearchField(key: string): [string, (value: string) => void, () => void] {
  const { params, set } = useSearchState();
  const fromUrl = params.get(key) ?? "";
  const [seen, setSeen] = useState(fromUrl);
  const [value, setValue] = useState(fromUrl);
  if (fromUrl !== seen) {
    setSeen(fromUrl);
    setValue(fromUrl);
  }
  return [value, setValue, () => set({ [key]: value.trim() || null })];
}

export { rangeFrom, type RangeParams } from "./range";
