"use client";

import { useState } from "react";
import { LINK_BUTTON } from "./section";

/** A "Copy" button for a value shown shortened (a wallet, a transaction, a processor's refund id): the full value one click away. */
export function CopyValue({ value, what, testId }: { value: string; what: string; testId?: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <button
      type="button"
      className={`${LINK_BUTTON} ml-1 font-sans`}
      data-testid={testId}
      aria-label={`Copy ${what}`}
      onClick={async () => {
        await navigator.clipboard?.writeText(value).catch(() => undefined);
        setCopied(true);
        setTimeout(() => setCopied(false), 1500);
      }}
    >
      {copied ? "Copied" : "Copy"}
    </button>
  );
}
