import type { ReactNode } from "react";

/** One card of a console page. */
export function Section({ title, children, actions, testId }: { title: string; children: ReactNode; actions?: ReactNode; testId?: string }) {
  return (
    <section className="mt-6 rounded-lg border border-slate-200 bg-white p-4 shadow-sm md:p-5" data-testid={testId} aria-label={title}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 className="min-w-0 text-lg font-medium [overflow-wrap:anywhere]">{title}</h2>
        {actions}
      </div>
      <div className="mt-3">{children}</div>
    </section>
  );
}

/** A page's title, what it is for, and its actions (export, filters). */
export function PageHeader({ title, children, actions }: { title: string; children?: ReactNode; actions?: ReactNode }) {
  return (
    <div className="flex flex-wrap items-start justify-between gap-3">
      <div className="min-w-0">
        <h1 className="text-2xl font-semibold">{title}</h1>
        {children && <p className="mt-1 max-w-3xl text-sm text-slate-600">{children}</p>}
      </div>
      {actions && <div className="flex flex-wrap items-center gap-2">{actions}</div>}
    </div>
  );
}

/** The console's data tables; `stack` turns each row into a labelled card on phones (cells carry data-label). */
export const TABLE_CLASS = "w-full text-left text-sm [&_td]:pr-4 [&_th]:pr-4 [&_th]:font-medium";
export const STACKED_TABLE_CLASS = `${TABLE_CLASS} stack`;

/**
 * A wide table scrolls inside its card instead of widening the page; the scrolling box is a labelled region in the tab
 * order, so a keyboard can reach and scroll it. `relative` keeps its screen-reader-only labels inside the box.
 */
export function TableScroll({ children, label }: { children: ReactNode; label: string }) {
  return (
    <div className="relative -mx-4 overflow-x-auto px-4 md:mx-0 md:px-0" data-scrolls role="region" aria-label={`${label} (table)`} tabIndex={0}>
      {children}
    </div>
  );
}

type QueryState<T> = {
  isPending: boolean;
  isError: boolean;
  error: { message: string; data?: unknown } | null;
  data: T | undefined;
  refetch?: () => unknown;
};

/**
 * An error as a person reads it: a refused input (a reversed date range, a bad filter) is the person's to fix, said as
 * such; an answer the console could not read (signed out, the server restarting) says what to do, not tRPC's words.
 */
export function errorWords(error: { message: string; data?: unknown } | null | undefined): { invalid: boolean; text: string } {
  const code = (error?.data as { code?: string } | undefined)?.code;
  const message = error?.message ?? "no data";
  if (code === "BAD_REQUEST") return { invalid: true, text: message };
  if (/Unable to transform response|Failed to fetch|JSON/i.test(message))
    return { invalid: false, text: "the server's answer could not be read (you may have been signed out, or the server restarted); reload the page" };
  return { invalid: false, text: message };
}

/** A query's loading and error states, the same on every page; `children` renders the loaded data. */
export function Loaded<T>({ query, what, children }: { query: QueryState<T>; what: string; children: (data: T) => ReactNode }) {
  if (query.isPending)
    return (
      <p className="animate-pulse text-sm text-slate-500" role="status" aria-live="polite" data-testid="loading">
        Loading {what}…
      </p>
    );
  const problem = errorWords(query.error);
  if ((query.isError || query.data === undefined) && problem.invalid)
    return (
      <p role="alert" className="rounded border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950" data-testid="input-invalid">
        {problem.text.replace(/^./, (c) => c.toUpperCase())}
        {/[.!?]$/.test(problem.text) ? "" : "."} Change the filters above to see {what}.
      </p>
    );
  if (query.isError || query.data === undefined)
    return (
      <div role="alert" className="rounded border border-red-200 bg-red-50 p-3 text-sm text-red-800">
        Could not load {what}: {problem.text}.{" "}
        {query.refetch && (
          <button type="button" className="font-medium underline" onClick={() => query.refetch?.()}>
            Try again
          </button>
        )}
      </div>
    );
  return <>{children(query.data)}</>;
}

/** A card's "nothing here yet" line, with what would make something appear. */
export function Empty({ testId, children }: { testId: string; children: ReactNode }) {
  return (
    <p className="rounded border border-dashed border-slate-300 p-4 text-sm text-slate-500" data-testid={testId}>
      {children}
    </p>
  );
}

/** A figure with its label and, optionally, its change against the previous period. */
export function Kpi({
  label,
  value,
  exact,
  change,
  note,
  testId,
}: {
  label: string;
  value: string;
  exact?: string;
  change?: { text: string; direction: "up" | "down" | "flat" | "none" } | null;
  note?: ReactNode;
  testId: string;
}) {
  const tone = change?.direction === "up" ? "text-emerald-700" : change?.direction === "down" ? "text-red-700" : "text-slate-500";
  return (
    <div className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm" data-testid={testId}>
      <p className="text-sm text-slate-500">{label}</p>
      <p className="mt-1 text-2xl font-semibold tabular-nums" data-testid={`${testId}-value`} data-value={exact ?? value} title={exact}>
        {value}
      </p>
      {change && (
        <p className={`mt-1 text-sm ${tone}`} data-testid={`${testId}-change`}>
          {change.text}
        </p>
      )}
      {note && <p className="mt-1 text-xs text-slate-500">{note}</p>}
    </div>
  );
}

// Controls are at least 32 px tall (44 on phones where they stand alone), so a thumb hits them.
export const BUTTON =
  "inline-flex min-h-8 items-center rounded bg-indigo-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-indigo-700 disabled:opacity-50";
export const BUTTON_SECONDARY =
  "inline-flex min-h-8 items-center rounded border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-700 hover:bg-slate-50 disabled:opacity-50";
export const BUTTON_DANGER =
  "inline-flex min-h-8 items-center rounded bg-red-700 px-3 py-1.5 text-sm font-medium text-white hover:bg-red-800 disabled:opacity-50";
/** A small action inside a table row or a sentence: underlined (never told apart by colour alone), still 24 px tall. */
export const LINK_BUTTON = "inline-flex min-h-6 items-center text-sm text-indigo-700 underline underline-offset-2 hover:text-indigo-900 disabled:opacity-50";
export const INPUT = "min-h-8 rounded border border-slate-300 bg-white px-2 py-1 text-sm";
/** A link in running text or a table: underlined, so it is not told apart by colour alone. */
export const LINK = "text-indigo-700 underline underline-offset-2 hover:text-indigo-900";

/** The next page of a keyset-paged list, while there is one ("Show older refunds"). */
export function ShowOlder({
  query,
  label,
  testId,
}: {
  query: { hasNextPage: boolean; isFetchingNextPage: boolean; fetchNextPage: () => unknown };
  label: string;
  testId?: string;
}) {
  if (!query.hasNextPage) return null;
  return (
    <button className={`${BUTTON_SECONDARY} mt-3`} data-testid={testId} disabled={query.isFetchingNextPage} onClick={() => query.fetchNextPage()}>
      {query.isFetchingNextPage ? "Loading" : label}
    </button>
  );
}
