"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "../../../providers";
import { OwnerOnly } from "../../../_components/owner-only";
import { Empty, Loaded, PageHeader, Section, TABLE_CLASS, TableScroll } from "../../../_components/section";
import { RecentChanges } from "../../../_components/recent-changes";

/** 2025-01-02T03:04:05.678Z -> 2025-01-02 03:04:05 UTC (the same on the server and every browser). */
function utc(iso: string): string {
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)} UTC`;
}

function FieldError({ field, messages }: { field: string; messages?: string[] }) {
  if (!messages?.length) return null;
  return (
    <p role="alert" data-testid={`idp-error-${field}`} className="mt-1 text-xs text-red-700">
      {messages.join("; ")}
    </p>
  );
}

function useInvalidate() {
  const trpc = useTRPC();
  const qc = useQueryClient();
  return async () => {
    await qc.invalidateQueries({ queryKey: trpc.identity.providers.queryKey() });
    await qc.invalidateQueries({ queryKey: trpc.audit.list.pathKey() });
  };
}

function AddProviderForm() {
  const trpc = useTRPC();
  const invalidate = useInvalidate();
  const [issuer, setIssuer] = useState("");
  const [jwksUri, setJwksUri] = useState("");
  const [jwksText, setJwksText] = useState("");
  const [jsonError, setJsonError] = useState<string | null>(null);
  const add = useMutation(
    trpc.identity.addProvider.mutationOptions({
      onSuccess: async () => {
        setIssuer("");
        setJwksUri("");
        setJwksText("");
        await invalidate();
      },
    }),
  );
  // Field messages come from the shared provider schema (data.zodError); domain refusals from data.appError.
  const fieldErrors = (add.error?.data?.zodError?.fieldErrors ?? {}) as Record<string, string[] | undefined>;
  const formError = add.error && !add.error.data?.zodError ? add.error.message : (add.error?.data?.zodError?.formErrors ?? []).join("; ") || null;
  return (
    <form
      className="mt-4 grid gap-3 border-t border-slate-100 pt-4 text-sm"
      data-testid="idp-add-form"
      onSubmit={(e) => {
        e.preventDefault();
        setJsonError(null);
        add.reset();
        let jwks: unknown;
        if (jwksText.trim()) {
          try {
            jwks = JSON.parse(jwksText);
          } catch {
            setJsonError("the JWKS is not valid JSON");
            return;
          }
        }
        add.mutate({ issuer: issuer.trim(), jwksUri: jwksUri.trim() || undefined, jwks: jwks as never });
      }}
    >
      <h3 className="font-medium">Add a provider</h3>
      <label className="grid gap-1">
        <span className="text-slate-600">Provider address (issuer)</span>
        <input
          data-testid="idp-issuer"
          className="rounded border border-slate-300 px-2 py-1 font-mono"
          value={issuer}
          onChange={(e) => setIssuer(e.target.value)}
          placeholder="https://idp.example.com"
        />
        <FieldError field="issuer" messages={fieldErrors.issuer} />
      </label>
      <p className="text-slate-600">Its public keys (a JWKS): give either the web address they are published at, or paste them.</p>
      <label className="grid gap-1">
        <span className="text-slate-600">Address of its public keys (https)</span>
        <input
          data-testid="idp-jwks-uri"
          className="rounded border border-slate-300 px-2 py-1 font-mono"
          value={jwksUri}
          onChange={(e) => setJwksUri(e.target.value)}
          placeholder="https://idp.example.com/.well-known/jwks.json"
        />
        <FieldError field="jwksUri" messages={fieldErrors.jwksUri} />
      </label>
      <label className="grid gap-1">
        <span className="text-slate-600">or the keys themselves, pasted as JSON (any private parts are dropped, never stored)</span>
        <textarea
          data-testid="idp-jwks"
          className="h-24 rounded border border-slate-300 px-2 py-1 font-mono text-xs"
          value={jwksText}
          onChange={(e) => setJwksText(e.target.value)}
          placeholder='{"keys":[{"kty":"EC","crv":"P-256","kid":"...","x":"...","y":"..."}]}'
        />
        <FieldError field="jwks" messages={jsonError ? [jsonError] : fieldErrors.jwks} />
      </label>
      <div className="flex items-center gap-3">
        <button data-testid="idp-add" className="rounded bg-indigo-600 px-3 py-1 text-white disabled:opacity-50" disabled={add.isPending}>
          {add.isPending ? "Adding" : "Add provider"}
        </button>
        {add.isSuccess && (
          <span role="status" data-testid="idp-add-status" className="text-emerald-700">
            Added {add.data.issuer}
          </span>
        )}
        {formError && (
          <span role="alert" data-testid="idp-add-error" className="text-red-700">
            {formError}
          </span>
        )}
      </div>
    </form>
  );
}

function ProviderRow({ p }: { p: { id: string; issuer: string; keySourceLabel: string; enabled: boolean; createdAt: string } }) {
  const trpc = useTRPC();
  const invalidate = useInvalidate();
  const [confirming, setConfirming] = useState(false);
  const toggle = useMutation(trpc.identity.setProviderEnabled.mutationOptions({ onSuccess: invalidate }));
  const remove = useMutation(trpc.identity.removeProvider.mutationOptions({ onSuccess: invalidate }));
  const error = toggle.error ?? remove.error;
  return (
    <tr className="border-t border-slate-100 align-top" data-testid={`idp-row-${p.issuer}`}>
      <td className="py-2 font-mono break-all">{p.issuer}</td>
      <td className="font-mono text-xs break-all" data-testid="idp-key-source">
        {p.keySourceLabel}
      </td>
      <td>
        <span
          data-testid="idp-state"
          className={`rounded px-2 py-0.5 text-xs ${p.enabled ? "bg-emerald-100 text-emerald-800" : "bg-slate-100 text-slate-600"}`}
        >
          {p.enabled ? "Enabled" : "Disabled"}
        </span>
      </td>
      <td className="font-mono text-xs">{utc(p.createdAt)}</td>
      <td className="whitespace-nowrap text-right">
        <button
          data-testid="idp-toggle"
          className="text-indigo-700 underline underline-offset-2 disabled:opacity-50"
          disabled={toggle.isPending}
          onClick={() => toggle.mutate({ id: p.id, enabled: !p.enabled })}
        >
          {p.enabled ? "Disable" : "Enable"}
        </button>{" "}
        {confirming ? (
          <>
            <button
              data-testid="idp-remove-confirm"
              className="text-red-700 hover:underline disabled:opacity-50"
              disabled={remove.isPending}
              onClick={() => remove.mutate({ id: p.id })}
            >
              Confirm remove
            </button>{" "}
            <button className="text-slate-500 hover:underline" onClick={() => setConfirming(false)}>
              Cancel
            </button>
          </>
        ) : (
          <button data-testid="idp-remove" className="text-red-700 hover:underline" onClick={() => setConfirming(true)}>
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
  );
}

export function IdentityProviders() {
  const trpc = useTRPC();
  const list = useQuery(trpc.identity.providers.queryOptions());
  return (
    <>
      <PageHeader title="Identity providers">
        Companies whose sign-in you trust (your own, or your customers&apos;). An agent that a trusted company vouches for joins already linked to the person it
        works for, with no claim link to click. Turn a provider off and its agents can no longer join.
      </PageHeader>
      <Section title="Trusted issuers">
        <p className="mb-1 text-sm text-slate-600">
          Each provider is named by its address (the issuer) and proves its agents with public keys, read from a web address or pasted once.
        </p>
        <details className="mb-3 text-sm text-slate-600">
          <summary className="min-h-6 cursor-pointer">For developers</summary>
          <p className="mt-1">
            Agents of a trusted provider register with an ID-JAG (POST /agent/identity, type identity_assertion) and are born claimed. Enabled issuers are
            published in /.well-known/oauth-authorization-server under agent_auth.trusted_issuers (cached by clients for up to 5 minutes); a disabled or removed
            issuer is refused at once with issuer_not_enabled.
          </p>
        </details>
        <Loaded query={list} what="identity providers">
          {(data) => (
            <>
              <OwnerOnly>
                {data.providers.length === 0 ? (
                  <Empty testId="idp-empty">No trusted identity providers.</Empty>
                ) : (
                  <TableScroll label="Trusted identity providers">
                    <table className={TABLE_CLASS} data-testid="idp-table">
                      <thead className="text-slate-600">
                        <tr>
                          <th className="py-1">Issuer</th>
                          <th>Keys</th>
                          <th>State</th>
                          <th>Added</th>
                          <th />
                        </tr>
                      </thead>
                      <tbody>
                        {data.providers.map((p) => (
                          <ProviderRow key={p.id} p={p} />
                        ))}
                      </tbody>
                    </table>
                  </TableScroll>
                )}
                <AddProviderForm />
              </OwnerOnly>
              <div className="mt-6 border-t border-slate-100 pt-4 text-sm" data-testid="idp-hosts">
                <h3 className="font-medium">Storefront hosts</h3>
                <p className="mb-2 text-slate-500">
                  Each address serves this same storefront; a provider&apos;s proof may name any of them (or <span className="font-mono">{data.audience}</span>)
                  as the storefront it is for.
                </p>
                <ul className="font-mono">
                  {data.hosts.map((h) => (
                    <li key={h.hostname} data-testid={`idp-host-${h.hostname}`}>
                      {h.hostname} <span className="text-xs text-slate-500">since {utc(h.createdAt)}</span>
                    </li>
                  ))}
                </ul>
              </div>
            </>
          )}
        </Loaded>
      </Section>
      <RecentChanges targetType="trusted_identity_provider" />
    </>
  );
}
