"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { CopyButton } from "../../../../../_components/short-id";
import { ConfirmDialog } from "../../../_components/confirm-dialog";
import { CodeInput, Field, PasswordInput } from "../../../_components/field";
import { OwnerOnly } from "../../../_components/owner-only";
import { BUTTON_SECONDARY, INPUT, Section } from "../../../_components/section";
import { useTRPC } from "../../../providers";

/** The anchor the overview's setup checklist links to. */
export const PAYOUT_WALLET_ANCHOR = "payout-wallet";

/** The address payments go to now, with a copy button; or what having none means. */
function CurrentAddress({ current }: { current: string | null }) {
  return (
    <div className="mb-3 flex min-w-0 items-center gap-2 text-sm">
      {current ? (
        <>
          <code className="font-mono text-xs break-all" data-testid="payout-wallet-current">
            {current}
          </code>
          <CopyButton value={current} what="payout address" testId="payout-wallet-copy" />
        </>
      ) : (
        <span data-testid="payout-wallet-current">None: every priced call answers 409 payout_address_required.</span>
      )}
    </div>
  );
}

/** What the change does, said before it is made: new 402s, unpaid ones to the old address, funds already received. */
function ConfirmPayoutChange(p: {
  open: boolean;
  before: string | null;
  after: string;
  pending: boolean;
  error: string | null;
  onConfirm: () => void;
  onClose: () => void;
}) {
  return (
    <ConfirmDialog
      open={p.open}
      title="Change the payout wallet"
      changes={[{ label: "Payout wallet", before: p.before ?? "none", after: p.after }]}
      confirmLabel="Change the payout wallet"
      danger
      pending={p.pending}
      error={p.error}
      onConfirm={p.onConfirm}
      onClose={p.onClose}
      testId="payout-wallet-dialog"
      otherSideSees={{ who: "paying agents", what: "New 402 challenges name the new address; discovery documents name it at once." }}
    >
      <ul className="list-disc pl-5 text-sm text-slate-700">
        <li>New payments are paid to the new address.</li>
        <li>Challenges issued before and still unpaid name the old address: they are refused and offered again with the new one.</li>
        <li>Funds already received stay in the old wallet; its payments keep the address they were paid to.</li>
        <li>Every owner of this storefront is emailed the old and the new address.</li>
      </ul>
    </ConfirmDialog>
  );
}

function AddressInput({ value, set }: { value: string; set: (v: string) => void }) {
  return (
    <input
      className={`${INPUT} font-mono`}
      autoComplete="off"
      spellCheck={false}
      required
      value={value}
      onChange={(e) => set(e.target.value)}
      data-testid="payout-wallet-address"
    />
  );
}

/**
 * The wallet every 402 asks to be paid to, changed as a bank account is: typed, re-authenticated (password, and a code
 * when two-step is on), confirmed with what changes; every owner is emailed. Owners only; a viewer sees why not.
 */
export function PayoutWallet() {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const settings = useQuery(trpc.settings.get.queryOptions());
  const twoStep = useQuery(trpc.twoStep.status.queryOptions());
  const [address, setAddress] = useState("");
  const [password, setPassword] = useState("");
  const [code, setCode] = useState("");
  const [confirming, setConfirming] = useState(false);
  const change = useMutation(
    trpc.settings.updatePayoutAddress.mutationOptions({
      onSuccess: async () => {
        setConfirming(false);
        setAddress("");
        setPassword("");
        setCode("");
        await Promise.all([
          qc.invalidateQueries({ queryKey: trpc.settings.get.queryKey() }),
          qc.invalidateQueries({ queryKey: trpc.audit.list.pathKey() }),
          qc.invalidateQueries({ queryKey: trpc.analytics.setupChecklist.queryKey() }),
        ]);
      },
    }),
  );
  const current = settings.data?.storefront.payTo ?? null;
  const codeOn = twoStep.data?.enabled ?? false;
  return (
    <div id={PAYOUT_WALLET_ANCHOR} className="scroll-mt-4">
      <Section title="Payout wallet" testId="section-payout-wallet">
        <p className="mb-2 text-sm text-slate-600">Every payment in USDC on Base (x402 and MPP) is paid to this address.</p>
        <CurrentAddress current={current} />
        <OwnerOnly>
          <form
            className="grid max-w-md gap-3 text-sm"
            onSubmit={(e) => {
              e.preventDefault();
              change.reset();
              setConfirming(true);
            }}
          >
            <Field label="New wallet address (0x…)">
              <AddressInput value={address} set={setAddress} />
            </Field>
            <Field label="Your password">
              <PasswordInput value={password} set={setPassword} testId="payout-wallet-password" />
            </Field>
            {codeOn && (
              <Field label="Code from your authenticator app, or a recovery code">
                <CodeInput value={code} set={setCode} testId="payout-wallet-code" numeric={false} />
              </Field>
            )}
            <div>
              <button className={BUTTON_SECONDARY} data-testid="payout-wallet-review">
                Review the change
              </button>
            </div>
            {change.isSuccess && (
              <p role="status" className="text-emerald-700" data-testid="payout-wallet-saved">
                Changed. {change.data.notified} {change.data.notified === 1 ? "owner was" : "owners were"} emailed.
              </p>
            )}
          </form>
        </OwnerOnly>
        <ConfirmPayoutChange
          open={confirming}
          before={current}
          after={address.trim()}
          pending={change.isPending}
          error={change.error?.message ?? null}
          onConfirm={() => change.mutate({ address: address.trim(), password, ...(codeOn ? { code } : {}) })}
          onClose={() => (setConfirming(false), change.reset())}
        />
      </Section>
    </div>
  );
}
