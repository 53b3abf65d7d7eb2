"use client";

import { useEffect, useId, useRef, type ReactNode } from "react";
import { createPortal } from "react-dom";
import { BUTTON, BUTTON_DANGER, BUTTON_SECONDARY } from "./section";

export type Change = { label: string; before: ReactNode; after: ReactNode };

/**
 * The one confirmation for actions that change what agents pay or what a payer gets back: a modal dialog (the native
 * <dialog>: focus stays inside, Escape cancels, the page behind is inert) that shows what changes (before and after),
 * what it does (`children`: a preview, figures, warnings), any fields the action needs (`fields`), and what the other
 * side will see (`otherSideSees`). Nothing happens until Confirm; the action's error is shown in place and the dialog
 * stays open. A refund fits the same shape: changes = the amount paid and the amount going back, fields = the amount
 * (partial where the rail allows it) and a reason, otherSideSees = what the payer's receipt and statement will say.
 */
export function ConfirmDialog(props: Props) {
  // Rendered only while open, so a page with one dialog per row holds one dialog at a time. Into the body, not where
  // it is opened: a dialog opened from a table row would otherwise take the cell's styles (no wrapping, right-aligned,
  // monospace) and grow past its own width, its Confirm button out of reach.
  if (!props.open || typeof document === "undefined") return null;
  return createPortal(<OpenDialog {...props} />, document.body);
}

type Props = {
  open: boolean;
  title: string;
  changes?: Change[];
  children?: ReactNode;
  fields?: ReactNode;
  otherSideSees?: { who: string; what: ReactNode };
  confirmLabel: string;
  danger?: boolean;
  pending?: boolean;
  confirmDisabled?: boolean;
  error?: string | null;
  onConfirm: () => void;
  onClose: () => void;
  testId: string;
  /** The confirm button's test id, when a spec already names it (default `${testId}-confirm`). */
  confirmTestId?: string;
};

function OpenDialog({
  title,
  changes,
  children,
  fields,
  otherSideSees,
  confirmLabel,
  danger,
  pending,
  confirmDisabled,
  error,
  onConfirm,
  onClose,
  testId,
  confirmTestId,
}: Props) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  // Opened as a modal once mounted; unmounting removes it (and its top layer) without a close event.
  useEffect(() => {
    const d = ref.current;
    if (d && !d.open) d.showModal();
  }, []);
  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      className="m-auto w-[min(40rem,calc(100vw-1.5rem))] rounded-lg border text-left border-slate-200 bg-white p-0 text-slate-900 shadow-xl backdrop:bg-slate-900/40"
      onClose={onClose}
      data-testid={testId}
    >
      <form
        method="dialog"
        className="grid max-h-[85vh] gap-4 overflow-y-auto p-5"
        onSubmit={(e) => {
          e.preventDefault();
          if (!pending && !confirmDisabled) onConfirm();
        }}
      >
        <h2 id={titleId} className="text-lg font-semibold">
          {title}
        </h2>
        {changes && changes.length > 0 && (
          <dl className="grid gap-1 text-sm sm:grid-cols-[10rem_1fr]" data-testid={`${testId}-changes`}>
            {changes.map((c) => (
              <div key={c.label} className="contents">
                <dt className="text-slate-600">{c.label}</dt>
                <dd>
                  <span className="text-slate-600 line-through decoration-slate-400">{c.before}</span> <span aria-label="becomes">→</span>{" "}
                  <span className="font-medium">{c.after}</span>
                </dd>
              </div>
            ))}
          </dl>
        )}
        {children}
        {fields}
        {otherSideSees && (
          <div className="rounded border border-slate-200 bg-slate-50 p-3 text-sm">
            <p className="font-medium">What {otherSideSees.who} will see</p>
            <div className="mt-1 text-slate-700">{otherSideSees.what}</div>
          </div>
        )}
        {error && (
          <p role="alert" className="text-sm text-red-700" data-testid={`${testId}-error`}>
            {error}
          </p>
        )}
        <div className="flex flex-wrap justify-end gap-2">
          <button type="button" className={BUTTON_SECONDARY} onClick={onClose} data-testid={`${testId}-cancel`}>
            Cancel
          </button>
          <button
            type="submit"
            className={danger ? BUTTON_DANGER : BUTTON}
            disabled={pending || confirmDisabled}
            data-testid={confirmTestId ?? `${testId}-confirm`}
          >
            {pending ? "Working…" : confirmLabel}
          </button>
        </div>
      </form>
    </dialog>
  );
}
