"use client";

import Link from "next/link";
import { useEffect, useState } from "react";

/** pay_abc…xyz: the first and last characters of a long id, enough to tell two apart at a glance. */
export function shortId(value: string, head = 10, tail = 6): string {
  return value.length <= head + tail + 1 ? value : `${value.slice(0, head)}…${value.slice(-tail)}`;
}

/** Copy text: the Clipboard API where the page may use it, else a selected textarea (plain-HTTP hosts). */
async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const area = document.createElement("textarea");
    area.value = text;
    area.setAttribute("readonly", "");
    area.style.position = "fixed";
    area.style.opacity = "0";
    document.body.append(area);
    area.select();
    const ok = document.execCommand("copy");
    area.remove();
    return ok;
  }
}

/** A button that copies `value`, saying "Copied" for a moment (announced to screen readers). */
export function CopyButton({ value, what, testId }: { value: string; what: string; testId?: string }) {
  const [copied, setCopied] = useState<null | boolean>(null);
  useEffect(() => {
    if (copied === null) return;
    const t = setTimeout(() => setCopied(null), 1500);
    return () => clearTimeout(t);
  }, [copied]);
  return (
    <button
      type="button"
      className="inline-flex min-h-6 min-w-6 shrink-0 items-center justify-center rounded border border-slate-300 bg-white px-1.5 font-sans text-xs text-slate-700 hover:bg-slate-50"
      onClick={async () => setCopied(await copyText(value))}
      aria-label={`Copy ${what}`}
      title={`Copy the full ${what}`}
      data-testid={testId ?? "copy-id"}
      data-copy={value}
    >
      <span aria-hidden>{copied === null ? "Copy" : copied ? "Copied" : "Failed"}</span>
      <span className="sr-only" role="status">
        {copied === null ? "" : copied ? "Copied" : "Could not copy"}
      </span>
    </button>
  );
}

/**
 * A long id (a payment id is about 250 characters) as a person reads it: its first and last characters, the full id
 * in the title and one click away (Copy). Optionally a link. `data-full` holds the whole id for specs and tools.
 */
export function ShortId({
  value,
  what = "id",
  href,
  testId,
  head,
  tail,
  copy = true,
}: {
  value: string;
  what?: string;
  href?: string;
  testId?: string;
  head?: number;
  tail?: number;
  copy?: boolean;
}) {
  const text = shortId(value, head, tail);
  const shown = href ? (
    <Link href={href} className="text-indigo-700 underline underline-offset-2 hover:text-indigo-900" title={value} data-testid={testId} data-full={value}>
      {text}
    </Link>
  ) : (
    <span title={value} data-testid={testId} data-full={value}>
      {text}
    </span>
  );
  return (
    <span className="inline-flex max-w-full items-center gap-1.5 font-mono text-xs whitespace-nowrap">
      {shown}
      {copy && text !== value && <CopyButton value={value} what={what} />}
    </span>
  );
}
