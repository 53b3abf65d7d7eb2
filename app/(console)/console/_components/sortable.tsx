"use client";

import { useMemo, useState, type ReactNode } from "react";

export type SortDir = "asc" | "desc";
type Value = string | number | bigint | null;

/** A six-decimal USD string as micros, for sorting money exactly ("1.110000" -> 1110000n). */
export const microsOf = (usd: string | null | undefined): bigint | null => (usd == null ? null : BigInt(usd.replace(".", "")));

function compare(a: Exclude<Value, null>, b: Exclude<Value, null>): number {
  if (a === b) return 0;
  if (typeof a === "string" && typeof b === "string") return a.localeCompare(b);
  return a < b ? -1 : 1;
}

/**
 * A table sorted by one of its columns, in the browser (for tables whose rows are all on the page). `header` renders a
 * column heading that sorts on click, with aria-sort for screen readers; nulls always sort last.
 */
export function useSort<T, K extends string>(rows: T[], columns: { [P in K]: (row: T) => Value }, initial: { key: NoInfer<K>; dir: SortDir }) {
  const [sort, setSort] = useState(initial);
  const sorted = useMemo(() => {
    const by = columns[sort.key];
    return [...rows].sort((a, b) => {
      const [x, y] = [by(a), by(b)];
      if (x === null || y === null) return x === y ? 0 : x === null ? 1 : -1;
      return compare(x, y) * (sort.dir === "asc" ? 1 : -1);
    });
  }, [rows, columns, sort]);
  const header = (key: K, label: ReactNode, className = "") => {
    const active = sort.key === key;
    return (
      <th key={key} className={className} aria-sort={active ? (sort.dir === "asc" ? "ascending" : "descending") : "none"}>
        <button
          type="button"
          className="inline-flex min-h-6 items-center gap-1 font-medium hover:text-slate-900"
          // A new column starts largest (or last) first, as money and counts are read; a second click reverses it.
          onClick={() => setSort(active ? { key, dir: sort.dir === "asc" ? "desc" : "asc" } : { key, dir: "desc" })}
        >
          {label}
          <span aria-hidden className="text-xs">
            {active ? (sort.dir === "asc" ? "▲" : "▼") : "↕"}
          </span>
        </button>
      </th>
    );
  };
  return { rows: sorted, header, sort };
}
