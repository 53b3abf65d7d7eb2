import type { ReactNode } from "react";

/**
 * A labelled control: its words and the control in one label, so the words name it and clicking them focuses it.
 * Above the control by default; `inline` beside it (wrapping under it on a narrow screen).
 */
export function Field({ label, children, inline, className }: { label: ReactNode; children: ReactNode; inline?: boolean; className?: string }) {
  const layout = inline ? "flex flex-wrap items-center gap-2" : "grid gap-1";
  return (
    <label className={className ? `${layout} ${className}` : layout}>
      <span className="text-slate-700">{label}</span>
      {children}
    </label>
  );
}
