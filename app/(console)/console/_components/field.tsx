import type { ReactNode } from "react";
import { INPUT } from "./section";

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

type InputProps = { value: string; set: (v: string) => void; testId: string };

/** A code from the authenticator app; `numeric` off where a recovery code (letters too) is accepted as well. */
export function CodeInput({ value, set, testId, numeric = true }: InputProps & { numeric?: boolean }) {
  return (
    <input
      className={`${INPUT} font-mono`}
      inputMode={numeric ? "numeric" : undefined}
      autoComplete="one-time-code"
      spellCheck={false}
      required
      value={value}
      onChange={(e) => set(e.target.value)}
      data-testid={testId}
    />
  );
}

/** The member's own password, asked again before a change that matters (two-step, recovery codes, the payout wallet). */
export function PasswordInput({ value, set, testId }: InputProps) {
  return (
    <input
      className={INPUT}
      type="password"
      autoComplete="current-password"
      required
      value={value}
      onChange={(e) => set(e.target.value)}
      data-testid={testId}
    />
  );
}

/**
 * The two things asked before a two-step change (turning it on, new recovery codes): a current code from the app and the
 * member's password. `testId` prefixes both inputs' test ids (`-code`, `-password`).
 */
export function AppCodeAndPassword(p: { code: string; setCode: (v: string) => void; password: string; setPassword: (v: string) => void; testId: string }) {
  return (
    <>
      <Field label="Code from your app" className="max-w-xs">
        <CodeInput value={p.code} set={p.setCode} testId={`${p.testId}-code`} />
      </Field>
      <Field label="Your password" className="max-w-xs">
        <PasswordInput value={p.password} set={p.setPassword} testId={`${p.testId}-password`} />
      </Field>
    </>
  );
}
