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
