"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "@/server/trpc/root";
import { useTRPC } from "../../../providers";
import { utcCell } from "../../../_components/format";
import { useIsOwner, VIEWER_REASON } from "../../../_components/owner-only";
import { DELIVERY_WORDS } from "./delivery-words";
import { SecretReveal } from "./secret-reveal";

type Endpoint = inferRouterOutputs<AppRouter>["webhooks"]["endpoints"][number];

const LINK = "text-indigo-700 hover:underline disabled:opacity-50";

/** An owner's button as a viewer sees it: disabled, the reason on hover (said in words beside the form below). */
const ownerButton = (owner: boolean, pending = false) => ({ disabled: pending || !owner, title: owner ? undefined : VIEWER_REASON });

/** An endpoint's state in words (Enabled, Failing, Disabled), why it was disabled beside it. */
function StateCell({ e }: { e: Endpoint }) {
  const enabled = e.status === "enabled";
  return (
    <td>
      <span
        className={`rounded px-2 py-0.5 text-xs ${enabled ? (e.failing_since ? "bg-amber-100 text-amber-900" : "bg-emerald-100 text-emerald-800") : "bg-red-100 text-red-900"}`}
        data-testid="webhook-state"
        title={e.disabled_reason ?? (e.failing_since ? `failing since ${e.failing_since}` : undefined)}
      >
        {enabled ? (e.failing_since ? "Failing" : "Enabled") : "Disabled"}
      </span>
      {e.disabled_reason && <p className="mt-1 max-w-xs text-xs text-red-800">{e.disabled_reason}</p>}
    </td>
  );
}

export function EndpointRow({ e, selected, onSelect }: { e: Endpoint; selected: boolean; onSelect: () => void }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const [secret, setSecret] = useState<string | null>(null);
  const refresh = async () => {
    await qc.invalidateQueries({ queryKey: trpc.webhooks.endpoints.queryKey() });
    await qc.invalidateQueries({ queryKey: trpc.webhooks.alerts.queryKey() });
    await qc.invalidateQueries({ queryKey: trpc.audit.list.pathKey() });
  };
  const update = useMutation(trpc.webhooks.updateEndpoint.mutationOptions({ onSuccess: refresh }));
  const rotate = useMutation(trpc.webhooks.rotateSecret.mutationOptions({ onSuccess: async (r) => (setSecret(r.secret), refresh()) }));
  const remove = useMutation(trpc.webhooks.deleteEndpoint.mutationOptions({ onSuccess: refresh }));
  const error = update.error ?? rotate.error ?? remove.error;
  const enabled = e.status === "enabled";
  const owner = useIsOwner();
  return (
    <>
      <tr className={`border-t border-slate-100 align-top ${selected ? "bg-indigo-50" : ""}`} data-testid={`webhook-endpoint-${e.id}`}>
        <td className="py-1.5 font-mono text-xs break-all">
          <button type="button" className={LINK} onClick={onSelect} aria-pressed={selected} data-testid="webhook-select">
            {e.url}
          </button>
          {e.description && <p className="font-sans text-slate-500">{e.description}</p>}
        </td>
        <td className="font-mono text-xs">{e.event_types.length ? e.event_types.join(", ") : "all"}</td>
        <StateCell e={e} />
        <td className="font-mono text-xs whitespace-nowrap">
          {e.last_delivery ? `${utcCell(e.last_delivery.at)} ${DELIVERY_WORDS[e.last_delivery.status] ?? e.last_delivery.status}` : "—"}
        </td>
        <td className="text-right tabular-nums">{e.pending}</td>
        <td className="text-right tabular-nums">{e.failed_24h}</td>
        <td className="whitespace-nowrap text-right text-sm">
          <button
            type="button"
            className={LINK}
            {...ownerButton(owner, update.isPending)}
            onClick={() => update.mutate({ id: e.id, enabled: !enabled })}
            data-testid="webhook-toggle"
          >
            {enabled ? "Disable" : "Enable"}
          </button>{" "}
          <button
            type="button"
            className={LINK}
            {...ownerButton(owner, rotate.isPending)}
            onClick={() => rotate.mutate({ id: e.id })}
            data-testid="webhook-rotate"
          >
            Rotate secret
          </button>{" "}
          {confirming ? (
            <button type="button" className="text-red-700 hover:underline" onClick={() => remove.mutate({ id: e.id })} data-testid="webhook-remove-confirm">
              Confirm remove
            </button>
          ) : (
            <button type="button" className={`${LINK} text-red-700`} {...ownerButton(owner)} onClick={() => setConfirming(true)} data-testid="webhook-remove">
              Remove
            </button>
          )}
          {error && (
            <p role="alert" className="text-xs text-red-700">
              {error.message}
            </p>
          )}
        </td>
      </tr>
      {secret && (
        <tr>
          <td colSpan={7}>
            <SecretReveal secret={secret} onDone={() => setSecret(null)} />
            {e.previous_secret_expires_at && (
              <p className="mt-1 text-xs text-slate-600">The previous secret also signs deliveries until {utcCell(e.previous_secret_expires_at)} UTC.</p>
            )}
          </td>
        </tr>
      )}
    </>
  );
}
