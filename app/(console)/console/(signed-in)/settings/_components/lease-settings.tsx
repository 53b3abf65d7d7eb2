"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "../../../providers";
import { Field } from "../../../_components/field";
import type { Outputs } from "../../../_components/types";
import { BUTTON, INPUT, Section } from "../../../_components/section";

/** The bounds as the server states them (settings.get): the seller's, the defaults, the range, on or off. */
type CreditLease = Outputs["settings"]["get"]["creditLease"];

const seconds = (ms: number) => String(ms / 1000);
const calls = (n: number) => (n === 0 ? "0 (no leases)" : `${n} ${n === 1 ? "call" : "calls"}`);

/** What a lease holds now, in words: the bounds in force, and which of them are the defaults. */
function leaseNow(c: CreditLease): string {
  const n = c.calls ?? c.defaultCalls;
  const ms = c.ms ?? c.defaultMs;
  const dflt = (own: number | null) => (own === null ? " (the default)" : "");
  if (!c.on) return `Now off: every plan-covered call is paid in PostgreSQL (calls per lease ${calls(n)}${dflt(c.calls)}, ${seconds(ms)} s${dflt(c.ms)}).`;
  return `Now a lease holds up to ${calls(n)}${dflt(c.calls)} and lasts up to ${seconds(ms)} s${dflt(c.ms)}, whichever ends first.`;
}

/** What a lease is and what it trades, before the bounds. */
function LeaseTrade() {
  return (
    <div className="mb-3 grid gap-2 text-sm text-slate-600">
      <p>
        A call covered by a plan is paid from the buyer&apos;s credit. With leasing, a server instance takes a lease: a few calls&apos; worth of one
        buyer&apos;s credit for a few seconds, spent from memory without asking PostgreSQL for each call, so covered calls answer sooner and the database writes
        about once per lease instead of once per call.
      </p>
      <p>
        The trade: a freeze, a revocation or a refund reaches every instance at once and ends its leases, but if that notice is lost an instance may keep
        spending until its lease ends, so the bounds below are the most it can spend unheard. Credit in a lease is never more than the buyer has, and what a
        lease did not spend goes back to the buyer.
      </p>
    </div>
  );
}

/** The allowed ranges, the defaults, and the bounds in force now. */
function LeaseBounds({ current }: { current: CreditLease }) {
  return (
    <>
      <p id="credit-lease-help" className="mt-2 text-xs text-slate-500">
        Calls per lease: 0 to {current.maxCalls.toLocaleString("en-US")}; 0 turns leasing off. Seconds per lease: {seconds(current.minMs)} to{" "}
        {seconds(current.maxMs)}. Leave either empty for the default ({calls(current.defaultCalls)}, {seconds(current.defaultMs)} s).
      </p>
      <p className="mt-1 text-xs text-slate-500" data-testid="credit-lease-current">
        {leaseNow(current)}
      </p>
    </>
  );
}

/** The bounds on leased plan credit: how much of a buyer's credit an instance may spend from memory, and for how long. */
export function LeaseSettingsForm({ current }: { current: CreditLease }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const [callsText, setCalls] = useState(current.calls === null ? "" : String(current.calls));
  const [secondsText, setSeconds] = useState(current.ms === null ? "" : seconds(current.ms));
  const save = useMutation(
    trpc.settings.updateCreditLease.mutationOptions({
      onSuccess: async () => {
        await Promise.all([qc.invalidateQueries({ queryKey: trpc.settings.get.queryKey() }), qc.invalidateQueries({ queryKey: trpc.audit.list.pathKey() })]);
      },
    }),
  );
  const c = callsText.trim();
  const s = secondsText.trim();
  const callsOk = c === "" || (/^\d{1,7}$/.test(c) && Number(c) <= current.maxCalls);
  const ms = /^\d{1,7}(\.\d{1,3})?$/.test(s) ? Math.round(Number(s) * 1000) : NaN;
  const secondsOk = s === "" || (ms >= current.minMs && ms <= current.maxMs);
  return (
    <Section title="Leased plan credit" testId="section-credit-lease">
      <LeaseTrade />
      <form
        className="flex flex-wrap items-end gap-3 text-sm"
        onSubmit={(e) => {
          e.preventDefault();
          save.reset();
          save.mutate({ calls: c, seconds: s });
        }}
        data-testid="credit-lease-form"
      >
        <Field label="Calls per lease">
          <input
            className={`${INPUT} w-32 font-mono`}
            inputMode="numeric"
            value={callsText}
            onChange={(e) => setCalls(e.target.value)}
            placeholder={String(current.defaultCalls)}
            aria-invalid={!callsOk}
            aria-describedby="credit-lease-help"
            data-testid="credit-lease-calls"
          />
        </Field>
        <Field label="Seconds per lease">
          <input
            className={`${INPUT} w-32 font-mono`}
            inputMode="decimal"
            value={secondsText}
            onChange={(e) => setSeconds(e.target.value)}
            placeholder={seconds(current.defaultMs)}
            aria-invalid={!secondsOk}
            aria-describedby="credit-lease-help"
            data-testid="credit-lease-seconds"
          />
        </Field>
        <button className={BUTTON} disabled={save.isPending || !callsOk || !secondsOk} data-testid="credit-lease-save">
          {save.isPending ? "Saving" : "Save lease bounds"}
        </button>
        {save.isSuccess && (
          <span role="status" className="text-sm text-emerald-700" data-testid="credit-lease-saved">
            Saved. Running instances end their leases now and take the next on these bounds.
          </span>
        )}
        {save.error && (
          <span role="alert" className="text-sm text-red-700" data-testid="credit-lease-error">
            {save.error.message}
          </span>
        )}
      </form>
      <LeaseBounds current={current} />
    </Section>
  );
}
