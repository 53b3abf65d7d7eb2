"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "../../../../providers";
import { BUTTON_SECONDARY } from "../../../../_components/section";

/**
 * "Export evidence": the payment's evidence file (payments.evidence: the signed receipt and where to verify it, the
 * challenge's terms, the proof without secrets, the settlement, ledger, audit and events), downloaded as one JSON file
 * for a dispute. Fetched when asked for, never with the page: it may ask the chain for the settlement's block.
 */
export function ExportEvidence({ id }: { id: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [state, setState] = useState<"idle" | "busy" | "failed">("idle");
  async function download() {
    setState("busy");
    try {
      const file = await queryClient.fetchQuery({ ...trpc.payments.evidence.queryOptions({ id }), staleTime: 0 });
      const url = URL.createObjectURL(new Blob([`${JSON.stringify(file, null, 2)}\n`], { type: "application/json" }));
      const a = document.createElement("a");
      a.href = url;
      a.download = `evidence-${id}.json`;
      document.body.append(a);
      a.click();
      a.remove();
      // The click has handed the blob to the download; the URL is not needed after this turn.
      setTimeout(() => URL.revokeObjectURL(url), 0);
      setState("idle");
    } catch {
      setState("failed");
    }
  }
  return (
    <span className="inline-flex items-center gap-2">
      <button type="button" className={BUTTON_SECONDARY} data-testid="payment-evidence-export" disabled={state === "busy"} onClick={download}>
        {state === "busy" ? "Preparing…" : "Export evidence"}
      </button>
      {state === "failed" && (
        <span role="alert" className="text-xs text-red-800" data-testid="payment-evidence-error">
          Could not export; try again.
        </span>
      )}
    </span>
  );
}
