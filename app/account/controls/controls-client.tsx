"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { freezeAction, revokeAction, setThresholdAction, unfreezeAction, type ActionResult } from "./actions";

const button = "rounded border border-slate-300 px-3 py-1 text-sm disabled:opacity-50";
const danger = "rounded bg-red-700 px-3 py-1 text-sm text-white disabled:opacity-50";

/** Freeze or unfreeze, and revoke behind a second, explicit step (it cannot be undone). */
export function CredentialControls({ credentialId, state }: { credentialId: string; state: "live" | "frozen" | "revoked" }) {
  const router = useRouter();
  const [pending, setPending] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  if (state === "revoked") return null;
  const run = async (action: (id: string) => Promise<ActionResult>) => {
    setPending(true);
    const res = await action(credentialId);
    setPending(false);
    setConfirming(false);
    setMessage(res.ok ? null : res.message);
    router.refresh();
  };
  return (
    <div className="flex flex-wrap items-center gap-2">
      {state === "live" ? (
        <button type="button" className={button} disabled={pending} onClick={() => run(freezeAction)}>
          Freeze
        </button>
      ) : (
        <button type="button" className={button} disabled={pending} onClick={() => run(unfreezeAction)}>
          Unfreeze
        </button>
      )}
      {confirming ? (
        <button type="button" className={danger} disabled={pending} onClick={() => run(revokeAction)}>
          Revoke for good
        </button>
      ) : (
        <button type="button" className={button} disabled={pending} onClick={() => setConfirming(true)}>
          Revoke…
        </button>
      )}
      {message && (
        <p role="alert" className="w-full text-sm text-red-700">
          {message}
        </p>
      )}
    </div>
  );
}

/** The approval threshold of one credential (or, without one, of all the person's credentials here): calls over it wait for the person. */
export function ThresholdForm({ credentialId, current, label }: { credentialId: string | null; current: string | null; label: string }) {
  const router = useRouter();
  const [pending, setPending] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  return (
    <form
      className="flex flex-wrap items-end gap-2"
      onSubmit={async (e) => {
        e.preventDefault();
        setPending(true);
        const res = await setThresholdAction(credentialId, String(new FormData(e.currentTarget).get("usd") ?? ""));
        setPending(false);
        setMessage(res.ok ? "Saved." : res.message);
        router.refresh();
      }}
    >
      <label className="text-sm">
        {label}
        <span className="mt-1 flex items-center gap-1">
          $<input name="usd" inputMode="decimal" defaultValue={current ?? ""} placeholder="none" className="w-28 rounded border border-slate-300 px-2 py-1" />
        </span>
      </label>
      <button className={button} disabled={pending}>
        Save
      </button>
      {message && (
        <p role="status" className="w-full text-sm">
          {message}
        </p>
      )}
    </form>
  );
}
