"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "../../../providers";
import { BUTTON, INPUT } from "../../../_components/section";
import { SecretReveal } from "./secret-reveal";

/** Add an endpoint: its URL, what it is for, the event types it takes (none ticked: all of them). */
export function EndpointForm() {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const types = useQuery(trpc.webhooks.eventTypes.queryOptions());
  const [url, setUrl] = useState("");
  const [description, setDescription] = useState("");
  const [picked, setPicked] = useState<string[]>([]);
  const [secret, setSecret] = useState<string | null>(null);
  const create = useMutation(
    trpc.webhooks.createEndpoint.mutationOptions({
      onSuccess: async (r) => {
        setSecret(r.secret);
        setUrl("");
        setDescription("");
        setPicked([]);
        await qc.invalidateQueries({ queryKey: trpc.webhooks.endpoints.queryKey() });
        await qc.invalidateQueries({ queryKey: trpc.audit.list.pathKey() });
      },
    }),
  );
  const toggle = (t: string) => setPicked((p) => (p.includes(t) ? p.filter((x) => x !== t) : [...p, t]));
  return (
    <div className="mt-4 border-t border-slate-100 pt-4">
      {secret && <SecretReveal secret={secret} onDone={() => setSecret(null)} />}
      <form
        className="mt-3 grid gap-3 text-sm"
        data-testid="webhook-add-form"
        onSubmit={(e) => {
          e.preventDefault();
          create.reset();
          create.mutate({ url: url.trim(), description, eventTypes: picked });
        }}
      >
        <h3 className="font-medium">Add an endpoint</h3>
        <label className="grid gap-1">
          <span className="text-slate-600">URL (https)</span>
          <input
            data-testid="webhook-url"
            className={`${INPUT} font-mono`}
            value={url}
            onChange={(e) => setUrl(e.target.value)}
            placeholder="https://example.com/webhooks/storefront"
            required
          />
        </label>
        <label className="grid gap-1">
          <span className="text-slate-600">Description (optional)</span>
          <input data-testid="webhook-description" className={INPUT} value={description} maxLength={200} onChange={(e) => setDescription(e.target.value)} />
        </label>
        <fieldset className="grid gap-1">
          <legend className="text-slate-600">Events (none ticked: every event, including types added later)</legend>
          <div className="grid gap-1 sm:grid-cols-2">
            {(types.data ?? []).map((t) => (
              <label key={t.type} className="flex min-h-6 items-center gap-2" title={t.about}>
                <input
                  type="checkbox"
                  className="h-6 w-6 shrink-0"
                  checked={picked.includes(t.type)}
                  onChange={() => toggle(t.type)}
                  data-testid={`webhook-type-${t.type}`}
                />
                <span className="font-mono text-xs">{t.type}</span>
              </label>
            ))}
          </div>
        </fieldset>
        <div className="flex items-center gap-3">
          <button className={BUTTON} disabled={create.isPending} data-testid="webhook-add">
            {create.isPending ? "Adding" : "Add endpoint"}
          </button>
          {create.error && (
            <span role="alert" className="text-red-700" data-testid="webhook-add-error">
              {create.error.message}
            </span>
          )}
        </div>
      </form>
    </div>
  );
}
