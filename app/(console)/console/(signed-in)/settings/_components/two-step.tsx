"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { encode } from "uqr";
import { useTRPC } from "../../../providers";
import { utc } from "../../../_components/format";
import { AppCodeAndPassword, CodeInput, Field } from "../../../_components/field";
import { BUTTON, BUTTON_DANGER, BUTTON_SECONDARY, Loaded, Section } from "../../../_components/section";
import { RegenerateRecoveryCodes } from "./regenerate-recovery-codes";

/** The otpauth URI as a QR code an authenticator app scans: drawn from uqr's modules, no image fetched, no HTML injected. */
function QrCode({ text }: { text: string }) {
  const { data, size } = encode(text, { border: 2 });
  const path = data.flatMap((row, y) => row.map((on, x) => (on ? `M${x} ${y}h1v1h-1z` : ""))).join("");
  return (
    <svg
      viewBox={`0 0 ${size} ${size}`}
      className="h-44 w-44 bg-white"
      role="img"
      aria-label="QR code to scan with an authenticator app"
      data-testid="two-step-qr"
    >
      <path d={path} fill="#000" shapeRendering="crispEdges" />
    </svg>
  );
}

/** The recovery codes, shown once: the only time they leave the server. */
function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  return (
    <div role="status" className="rounded border border-amber-300 bg-amber-50 p-3 text-sm" data-testid="two-step-recovery">
      <p className="font-medium text-slate-900">Two-step authentication is on. Save these recovery codes now: they are not shown again.</p>
      <p className="mt-1 text-slate-700">Each one signs you in once instead of a code from your app, if you lose your phone.</p>
      <ul className="mt-2 grid grid-cols-2 gap-1 font-mono sm:grid-cols-5" data-testid="two-step-recovery-codes">
        {codes.map((c) => (
          <li key={c}>{c}</li>
        ))}
      </ul>
      <button type="button" className={`${BUTTON_SECONDARY} mt-3`} onClick={onDone} data-testid="two-step-recovery-done">
        I have saved them
      </button>
    </div>
  );
}

/** Set up: a new secret from the server, shown once, then confirmed. */
function SetUp({ onOn }: { onOn: (codes: string[]) => void }) {
  const trpc = useTRPC();
  const begin = useMutation(trpc.twoStep.begin.mutationOptions());
  if (!begin.data)
    return (
      <div className="text-sm">
        <p className="text-slate-600">
          Off. With it on, signing in asks for a code from an authenticator app after your password, and a password reset does not skip it.
        </p>
        <button type="button" className={`${BUTTON} mt-3`} disabled={begin.isPending} onClick={() => begin.mutate()} data-testid="two-step-begin">
          {begin.isPending ? "Preparing" : "Set up two-step authentication"}
        </button>
        {begin.error && (
          <p role="alert" className="mt-2 text-red-700">
            {begin.error.message}
          </p>
        )}
      </div>
    );
  return <ConfirmSecret secret={begin.data.secret} uri={begin.data.uri} onOn={onOn} />;
}

/** The secret as a QR code, as text and as its URI, turned on with a current code and the account's password. */
function ConfirmSecret({ secret, uri, onOn }: { secret: string; uri: string; onOn: (codes: string[]) => void }) {
  const trpc = useTRPC();
  const [code, setCode] = useState("");
  const [password, setPassword] = useState("");
  const enable = useMutation(trpc.twoStep.enable.mutationOptions({ onSuccess: (r) => onOn(r.recoveryCodes) }));
  return (
    <form
      className="grid gap-3 text-sm"
      onSubmit={(e) => {
        e.preventDefault();
        enable.reset();
        enable.mutate({ code, password });
      }}
      data-testid="two-step-setup"
    >
      <p className="text-slate-600">Scan this with an authenticator app, or type the secret into it. Then enter the 6-digit code it shows.</p>
      <div className="flex flex-wrap items-start gap-4">
        <QrCode text={uri} />
        <div className="grid min-w-0 gap-1">
          <span className="text-slate-700">Secret</span>
          <code className="font-mono text-base break-all" data-testid="two-step-secret">
            {secret.match(/.{1,4}/g)!.join(" ")}
          </code>
          <details className="mt-1 max-w-md">
            <summary className="cursor-pointer text-indigo-700 underline">The otpauth link</summary>
            <code className="font-mono text-xs break-all" data-testid="two-step-uri">
              {uri}
            </code>
          </details>
        </div>
      </div>
      <AppCodeAndPassword code={code} setCode={setCode} password={password} setPassword={setPassword} testId="two-step" />
      <div>
        <button className={BUTTON} disabled={enable.isPending} data-testid="two-step-enable">
          {enable.isPending ? "Checking" : "Turn on"}
        </button>
      </div>
      {enable.error && (
        <p role="alert" className="text-red-700" data-testid="two-step-error">
          {enable.error.message}
        </p>
      )}
    </form>
  );
}

/** On: since when, the recovery codes left, and turning it off with a current code or a recovery code. */
function TurnOff({ since, left, onOff }: { since: string | null; left: number; onOff: () => void }) {
  const trpc = useTRPC();
  const [code, setCode] = useState("");
  const disable = useMutation(trpc.twoStep.disable.mutationOptions({ onSuccess: onOff }));
  return (
    <form
      className="grid gap-3 text-sm"
      onSubmit={(e) => {
        e.preventDefault();
        disable.reset();
        disable.mutate({ code });
      }}
    >
      <p className="text-slate-700" data-testid="two-step-on">
        On since {utc(since)}. {left} recovery {left === 1 ? "code" : "codes"} left.
      </p>
      <Field label="Code from your app, or a recovery code" className="max-w-xs">
        <CodeInput value={code} set={setCode} testId="two-step-off-code" numeric={false} />
      </Field>
      <div>
        <button className={BUTTON_DANGER} disabled={disable.isPending} data-testid="two-step-disable">
          {disable.isPending ? "Checking" : "Turn off two-step authentication"}
        </button>
      </div>
      {disable.error && (
        <p role="alert" className="text-red-700" data-testid="two-step-off-error">
          {disable.error.message}
        </p>
      )}
    </form>
  );
}

/** Settings' two-step authentication for the signed-in person's own account (every member, a viewer too). */
export function TwoStep() {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const q = useQuery(trpc.twoStep.status.queryOptions());
  const [codes, setCodes] = useState<string[] | null>(null);
  const refresh = () =>
    Promise.all([qc.invalidateQueries({ queryKey: trpc.twoStep.status.queryKey() }), qc.invalidateQueries({ queryKey: trpc.audit.list.pathKey() })]);
  return (
    <Section title="Two-step authentication" testId="section-two-step">
      {codes ? (
        <RecoveryCodes codes={codes} onDone={() => (setCodes(null), void refresh())} />
      ) : (
        <Loaded query={q} what="two-step authentication">
          {(s) =>
            s.enabled ? (
              <>
                <TurnOff since={s.enabledAt} left={s.recoveryCodesLeft} onOff={() => void refresh()} />
                <RegenerateRecoveryCodes onNew={setCodes} />
              </>
            ) : (
              <SetUp onOn={setCodes} />
            )
          }
        </Loaded>
      )}
    </Section>
  );
}
