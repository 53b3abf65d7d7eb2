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

/**
 * The one Copy button (the console's and the payer's pages): copies the full `value`, says "Copied" for a moment and
 * announces it. Its accessible name begins with the words it shows ("Copy payment id": the visible "Copy" plus the
 * what, for screen readers only), so speech input finds it by what a person sees; at least 24 by 24 px.
 */
export function CopyButton({ value, what, testId }: { value: string; what: string; testId?: string }) {
  const [copied, setCopied] = useState<null | boolean>(null);
  useEffect(() => {
    if (copied === null) return;
    const t = setTimeout(() => setCopied(null), 1500);
    return () => clearTimeout(t);
  }, [copied]);
  return (
    <>
      <button
        type="button"
        className="inline-flex min-h-6 min-w-6 shrink-0 items-center justify-center rounded border border-slate-300 bg-white px-1.5 font-sans text-xs text-slate-700 hover:bg-slate-50"
        onClick={async () => setCopied(await copyText(value))}
        title={`Copy the full ${what}`}
        data-testid={testId ?? "copy-id"}
        data-copy={value}
      >
        {copied === null ? "Copy" : copied ? "Copied" : "Failed"}
        <span className="sr-only"> {what}</span>
      </button>
      <span className="sr-only" role="status">
        {copied === null ? "" : copied ? "Copied" : "Could not copy"}
      </span>
    </>
  );
}

/**
 * A long id (a payment id is about 250 characters, a wallet or transaction 42 or 66) as a person reads it: its first and
 * last characters, the full id in the title and one click away (Copy). Optionally a link (an explorer's opens in a new
 * tab). `data-full` holds the whole id for specs and tools.
 */
export function ShortId({
  value,
  what = "id",
  href,
  testId,
  copyTestId,
  head,
  tail,
  copy = true,
}: {
  value: string;
  what?: string;
  href?: string;
  testId?: string;
  copyTestId?: string;
  head?: number;
  tail?: number;
  copy?: boolean;
}) {
  const text = shortId(value, head, tail);
  const link = "text-indigo-700 underline underline-offset-2 hover:text-indigo-900";
  const shown = !href ? (
    <span title={value} data-testid={testId} data-full={value}>
      {text}
    </span>
  ) : /^https?:/.test(href) ? (
    <a href={href} target="_blank" rel="noreferrer" className={link} title={value} data-testid={testId} data-full={value}>
      {text}
    </a>
  ) : (
    <Link href={href} className={link} title={value} data-testid={testId} data-full={value}>
      {text}
    </Link>
  );
  return (
    <span className="inline-flex max-w-full items-center gap-1.5 font-mono text-xs whitespace-nowrap">
      {shown}
      {copy && <CopyButton value={value} what={what} testId={copyTestId} />}
    </span>
  );
}
