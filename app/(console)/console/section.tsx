import type { ReactNode } from "react";

/** One card of the console dashboard. */
export function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="mt-8 rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
      <h2 className="text-lg font-medium">{title}</h2>
      <div className="mt-3">{children}</div>
    </section>
  );
}

/** The console's data tables. */
export const TABLE_CLASS = "w-full text-left text-sm [&_td]:pr-4 [&_th]:pr-4";

type QueryState<T> = { isPending: boolean; isError: boolean; error: { message: string } | null; data: T | undefined };

/** A query's loading and error lines, the same in every section; `children` renders the loaded data. */
export function Loaded<T>({ query, what, children }: { query: QueryState<T>; what: string; children: (data: T) => ReactNode }) {
  if (query.isPending) return <p className="text-sm text-slate-500">Loading {what}</p>;
  if (query.isError || query.data === undefined)
    return (
      <p className="text-sm text-red-700">
        Could not load {what}: {query.error?.message ?? "no data"}
      </p>
    );
  return <>{children(query.data)}</>;
}

/** A section's "nothing here yet" line. */
export function Empty({ testId, children }: { testId: string; children: ReactNode }) {
  return (
    <p className="text-sm text-slate-500" data-testid={testId}>
      {children}
    </p>
  );
}
