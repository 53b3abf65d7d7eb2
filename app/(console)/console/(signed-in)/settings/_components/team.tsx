"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "../../../providers";
import { OwnerOnly, useIsOwner, VIEWER_REASON } from "../../../_components/owner-only";
import { utc } from "../../../_components/format";
import { BUTTON, INPUT, Loaded, Section } from "../../../_components/section";

const ROLE_WORDS = { owner: "Owner: changes prices, refunds and settings", viewer: "Viewer: reads everything, changes nothing" } as const;
type Role = keyof typeof ROLE_WORDS;

/** The members with their roles (an owner changes one here) and the open invitations. */
function Members() {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const q = useQuery(trpc.team.members.queryOptions());
  const owner = useIsOwner();
  const setMemberRole = useMutation(trpc.team.setRole.mutationOptions({ onSuccess: () => qc.invalidateQueries({ queryKey: trpc.team.members.queryKey() }) }));
  return (
    <Loaded query={q} what="the team">
      {(t) => (
        <>
          <ul className="divide-y divide-slate-100 text-sm" data-testid="team-members">
            {t.members.map((m) => (
              <li key={m.id} className="flex flex-wrap items-center justify-between gap-2 py-2" data-testid="team-member">
                <span className="min-w-0">
                  <span className="font-medium">{m.name}</span> <span className="break-all text-slate-600">{m.email}</span>
                  {m.id === t.me && <span className="text-slate-500"> (you)</span>}
                  <span className="block text-xs text-slate-500">{m.lastLoginAt ? `Last signed in ${utc(m.lastLoginAt)}` : "Never signed in"}</span>
                </span>
                <label className="text-sm">
                  <span className="sr-only">Role of {m.email}</span>
                  <select
                    className={INPUT}
                    value={m.role}
                    disabled={setMemberRole.isPending || !owner}
                    title={owner ? undefined : VIEWER_REASON}
                    onChange={(e) => setMemberRole.mutate({ userId: m.id, role: e.target.value as Role })}
                    data-testid="team-member-role"
                  >
                    <option value="owner">Owner</option>
                    <option value="viewer">Viewer</option>
                  </select>
                </label>
              </li>
            ))}
            {t.invites.map((i) => (
              <li key={i.id} className="py-2 text-slate-600" data-testid="team-invite">
                <span className="break-all">{i.email}</span>: invited as {i.role}, until {utc(i.expiresAt)}
              </li>
            ))}
          </ul>
          {setMemberRole.error && (
            <p role="alert" className="mt-2 text-sm text-red-700" data-testid="team-role-error">
              {setMemberRole.error.message}
            </p>
          )}
        </>
      )}
    </Loaded>
  );
}

/** Settings' team: who can sign in to this console and with what role; an owner invites by email (a link that works once, for 7 days). */
export function Team() {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const [email, setEmail] = useState("");
  const [role, setRole] = useState<Role>("viewer");
  const refresh = () => qc.invalidateQueries({ queryKey: trpc.team.members.queryKey() });
  const invite = useMutation(trpc.team.invite.mutationOptions({ onSuccess: refresh }));
  return (
    <Section title="Team" testId="section-team">
      <Members />
      <OwnerOnly className="mt-4">
        <form
          className="mt-4 grid gap-3 text-sm sm:grid-cols-[1fr_auto_auto] sm:items-end"
          onSubmit={(e) => {
            e.preventDefault();
            invite.reset();
            invite.mutate({ email, role }, { onSuccess: () => setEmail("") });
          }}
          data-testid="team-invite-form"
        >
          <label className="grid gap-1">
            <span className="text-slate-700">Invite by email</span>
            <input type="email" required className={INPUT} value={email} onChange={(e) => setEmail(e.target.value)} data-testid="team-invite-email" />
          </label>
          <label className="grid gap-1">
            <span className="text-slate-700">Role</span>
            <select className={INPUT} value={role} onChange={(e) => setRole(e.target.value as Role)} data-testid="team-invite-role">
              <option value="viewer">{ROLE_WORDS.viewer}</option>
              <option value="owner">{ROLE_WORDS.owner}</option>
            </select>
          </label>
          <button className={BUTTON} disabled={invite.isPending} data-testid="team-invite-send">
            {invite.isPending ? "Sending" : "Send the invitation"}
          </button>
        </form>
      </OwnerOnly>
      {invite.isSuccess && (
        <p role="status" className="mt-2 text-sm text-emerald-700" data-testid="team-invite-sent">
          Invitation sent to {invite.data.email}. The link works once, within 7 days.
        </p>
      )}
      {invite.error && (
        <p role="alert" className="mt-2 text-sm text-red-700" data-testid="team-invite-error">
          {invite.error.message}
        </p>
      )}
    </Section>
  );
}
