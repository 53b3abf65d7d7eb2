"use client";

import { useState } from "react";
import { BUTTON_SECONDARY } from "../../../_components/section";

/** A signing secret, shown once: it is stored sealed and never shown again. */
export function SecretReveal({ secret, onDone }: { secret: string; onDone: () => void }) {
  const [copied, setCopied] = useState(false);
  return (
    <div role="status" className="mt-3 rounded border border-amber-300 bg-amber-50 p-3 text-sm" data-testid="webhook-secret">
      <p className="font-medium text-amber-900">Signing secret: copy it now, it is not shown again.</p>
      <p className="mt-1 text-amber-900">Verify each delivery with it (the standardwebhooks library, or HMAC-SHA256 of id.timestamp.body).</p>
      <code className="mt-2 block break-all rounded bg-white p-2 font-mono text-xs" data-testid="webhook-secret-value">
        {secret}
      </code>
      <div className="mt-2 flex gap-2">
        <button
          type="button"
          className={BUTTON_SECONDARY}
          onClick={async () => {
            await navigator.clipboard?.writeText(secret).catch(() => {});
            setCopied(true);
          }}
        >
          {copied ? "Copied" : "Copy"}
        </button>
        <button type="button" className={BUTTON_SECONDARY} onClick={onDone} data-testid="webhook-secret-done">
          I have stored it
        </button>
      </div>
    </div>
  );
}
