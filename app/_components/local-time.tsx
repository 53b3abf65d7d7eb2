"use client";

import { useEffect, useState, useSyncExternalStore } from "react";

// The server does not know the reader's time zone: it renders UTC, and the browser swaps in local time once hydrated
// (the same markup on both sides first, so hydration never mismatches).
const subscribe = () => () => {};
const useHydrated = () =>
  useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );

function utcText(d: Date, withDate: boolean): string {
  const iso = d.toISOString();
  return `${withDate ? `${iso.slice(0, 10)} ` : ""}${iso.slice(11, 16)} UTC`;
}

function localText(d: Date, withDate: boolean): string {
  return d.toLocaleString(undefined, {
    ...(withDate ? { year: "numeric", month: "short", day: "numeric" } : {}),
    hour: "2-digit",
    minute: "2-digit",
    timeZoneName: "short",
  });
}

/** A moment in the reader's own time zone (UTC until the page is hydrated); the exact instant is in `dateTime`. */
export function LocalTime({ iso, withDate = true, testId }: { iso: string; withDate?: boolean; testId?: string }) {
  const hydrated = useHydrated();
  const d = new Date(iso);
  return (
    <time dateTime={iso} title={utcText(d, true)} data-testid={testId}>
      {hydrated ? localText(d, withDate) : utcText(d, withDate)}
    </time>
  );
}

/** "in 8 minutes" / "in 2 days", kept current while the page is open; "now expired" once past. */
export function TimeLeft({ iso, testId, prefix = "" }: { iso: string; testId?: string; prefix?: string }) {
  const hydrated = useHydrated();
  const [now, setNow] = useState<number | null>(null);
  useEffect(() => {
    const tick = () => setNow(Date.now());
    const t = setInterval(tick, 15_000);
    const first = setTimeout(tick, 0);
    return () => {
      clearInterval(t);
      clearTimeout(first);
    };
  }, []);
  if (!hydrated || now === null) return null;
  const ms = Date.parse(iso) - now;
  return (
    <span data-testid={testId}>
      {prefix}
      {ms <= 0 ? "it has now expired" : `in ${duration(ms)}`}
    </span>
  );
}

function duration(ms: number): string {
  const minutes = Math.max(1, Math.round(ms / 60_000));
  if (minutes < 90) return `${minutes} minute${minutes === 1 ? "" : "s"}`;
  const hours = Math.round(minutes / 60);
  if (hours < 48) return `${hours} hours`;
  return `${Math.round(hours / 24)} days`;
}
