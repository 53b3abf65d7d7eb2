"use client";

import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "../../../providers";
import { AppCodeAndPassword } from "../../../_components/field";
import { BUTTON_SECONDARY } from "../../../_components/section";

/**
 * New recovery codes while two-step authentication is on: the password and a current code from the app, and every earlier
 * code stops working at once. The new ten are handed to `onNew`, which shows them once.
 */
export function RegenerateRecoveryCodes({ onNew }: { onNew: (codes: string[]) => void }) {
  const trpc = useTRPC();
  const [code, setCode] = useState("");
  const [password, setPassword] = useState("");
  const regenerate = useMutation(trpc.twoStep.regenerateRecoveryCodes.mutationOptions({ onSuccess: (r) => onNew(r.recoveryCodes) }));
  return (
    <form
      className="mt-6 grid gap-3 border-t border-slate-200 pt-4 text-sm"
      aria-labelledby="two-step-regenerate-title"
      onSubmit={(e) => {
        e.preventDefault();
        regenerate.reset();
        regenerate.mutate({ code, password });
      }}
      data-testid="two-step-regenerate-form"
    >
      <h3 id="two-step-regenerate-title" className="font-medium text-slate-900">
        New recovery codes
      </h3>
      <p className="text-slate-600">Ten new codes in place of every one you have: the old ones stop working at once.</p>
      <AppCodeAndPassword code={code} setCode={setCode} password={password} setPassword={setPassword} testId="two-step-regenerate" />
      <div>
        <button className={BUTTON_SECONDARY} disabled={regenerate.isPending} data-testid="two-step-regenerate">
          {regenerate.isPending ? "Checking" : "Get new recovery codes"}
        </button>
      </div>
      {regenerate.error && (
        <p role="alert" className="text-red-700" data-testid="two-step-regenerate-error">
          {regenerate.error.message}
        </p>
      )}
    </form>
  );
}
