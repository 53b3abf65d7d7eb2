"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { OwnerOnly } from "../../../_components/owner-only";
import { useTRPC } from "../../../providers";
import { usd, utc } from "../../../_components/format";
import { ConfirmDialog } from "../../../_components/confirm-dialog";
import { RecentChanges } from "../../../_components/recent-changes";
import { Field } from "../../../_components/field";
import { BUTTON, BUTTON_SECONDARY, INPUT, Loaded, PageHeader, Section } from "../../../_components/section";
import { CardProcessor } from "./card-processor";
import { LeaseSettingsForm } from "./lease-settings";
import { Team } from "./team";
import { TwoStep } from "./two-step";
import { PayoutWallet } from "./payout-wallet";

type SettingsData = {
  explorers: { network: string; name: string; format: string | null; defaultFormat: string | null }[];
  ethUsd: { usd: string; setAt: string | null } | null;
};

function SettingsForm({ current }: { current: SettingsData }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  // null: the network uses the default format.
  const [formats, setFormats] = useState<Record<string, string | null>>(Object.fromEntries(current.explorers.map((e) => [e.network, e.format])));
  const [rate, setRate] = useState(current.ethUsd ? current.ethUsd.usd.replace(/\.?0+$/, "") : "");
  const save = useMutation(
    trpc.settings.update.mutationOptions({
      onSuccess: async () => {
        await Promise.all([
          qc.invalidateQueries({ queryKey: trpc.settings.get.queryKey() }),
          qc.invalidateQueries({ queryKey: trpc.audit.list.pathKey() }),
          qc.invalidateQueries({ queryKey: trpc.analytics.margin.pathKey() }),
        ]);
      },
    }),
  );
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        save.reset();
        save.mutate({ explorerTxUrls: formats, ethUsd: rate.trim() || null });
      }}
      data-testid="settings-form"
    >
      <Section title="Transaction links" testId="section-explorers">
        <p className="mb-3 text-sm text-slate-600">
          Where a settlement or refund transaction links to, per network. Put <span className="font-mono">{"{tx}"}</span> where the hash goes; leave a format
          empty for no link (a local chain has no explorer).
        </p>
        <div className="grid gap-3">
          {current.explorers.map((e) => {
            const value = formats[e.network];
            return (
              <div key={e.network} className="grid gap-1 text-sm md:grid-cols-[12rem_1fr] md:items-center md:gap-3">
                <label htmlFor={`explorer-${e.network}`} className="text-slate-700">
                  {e.name} <span className="font-mono text-xs text-slate-500">{e.network}</span>
                </label>
                <div className="flex min-w-0 flex-wrap items-center gap-2">
                  <input
                    id={`explorer-${e.network}`}
                    className={`${INPUT} min-w-0 grow font-mono text-xs`}
                    value={value ?? e.defaultFormat ?? ""}
                    onChange={(ev) => setFormats((f) => ({ ...f, [e.network]: ev.target.value }))}
                    placeholder="https://explorer.example/tx/{tx}"
                    data-testid={`explorer-${e.network}`}
                  />
                  {value !== null && e.defaultFormat !== null && value !== e.defaultFormat && (
                    <button type="button" className="text-xs text-indigo-700 underline" onClick={() => setFormats((f) => ({ ...f, [e.network]: null }))}>
                      Use the default
                    </button>
                  )}
                </div>
              </div>
            );
          })}
        </div>
      </Section>
      <Section title="Gas costs in USD" testId="section-rate">
        <p className="mb-3 text-sm text-slate-600">
          The facilitator pays gas in ETH. The margin page shows it in USD only at a rate you set here: nothing is fetched or guessed. Leave it empty to see gas
          in ETH only.
        </p>
        <Field label="USD per ETH" inline className="text-sm">
          <input
            className={`${INPUT} w-36 font-mono`}
            inputMode="decimal"
            value={rate}
            onChange={(e) => setRate(e.target.value)}
            placeholder="e.g. 3012.55"
            data-testid="settings-eth-usd"
          />
        </Field>
        <p className="mt-2 text-xs text-slate-500" data-testid="settings-rate-current">
          {current.ethUsd ? `Now ${usd(current.ethUsd.usd)} per ETH, set ${utc(current.ethUsd.setAt)}.` : "No rate set."}
        </p>
      </Section>
      <div className="mt-4 flex flex-wrap items-center gap-3">
        <button className={BUTTON} disabled={save.isPending} data-testid="settings-save">
          {save.isPending ? "Saving" : "Save settings"}
        </button>
        {save.isSuccess && (
          <span role="status" className="text-sm text-emerald-700" data-testid="settings-saved">
            Saved.
          </span>
        )}
        {save.error && (
          <span role="alert" className="text-sm text-red-700" data-testid="settings-error">
            {save.error.message}
          </span>
        )}
      </div>
    </form>
  );
}

type UnsettledCap = { usd: string | null; defaultUsd: string; maxUsd: string };

const DECIMAL_USD = /^\d{1,4}(\.\d{1,6})?$/;

/** What differs between the two caps on value answered before settlement: per payer wallet, and across all wallets. */
const CAP_SCOPES = {
  wallet: {
    title: "Answers before settlement",
    label: "Per payer wallet",
    testId: "unsettled-cap",
    explain:
      "A call paid from a wallet (x402, MPP) is answered once its transfer is signed and queued, before the chain includes it, as long as what that payer " +
      "wallet has received this way and not yet settled stays within this cap; beyond it, its calls wait for inclusion. A transfer that fails after the answer " +
      "is recorded as an unpaid delivery, and that wallet waits for inclusion from then on. 0 makes every wallet-paid call wait.",
    risk: "This is the most you can lose per payer wallet if transfers fail after their answers went out. Calls already answered are not affected.",
  },
  seller: {
    title: "Answers before settlement, all wallets",
    label: "Across all wallets",
    testId: "seller-unsettled-cap",
    explain:
      "Wallets cost nothing to make, so the per-wallet cap alone does not bound what you can lose: this caps the total value answered before inclusion " +
      "and not yet settled, whoever paid. Past it, wallet-paid calls wait for inclusion until settlements land. 0 makes every wallet-paid call wait.",
    risk: "This is the most you can lose in all if every transfer in flight fails after its answer went out. Calls already answered are not affected.",
  },
} as const;

/** A cap on value answered before its settlement is included: typed, then confirmed (it is the seller's money at risk). */
function UnsettledCapForm({ current, scope }: { current: UnsettledCap; scope: keyof typeof CAP_SCOPES }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const text = CAP_SCOPES[scope];
  const [value, setValue] = useState(current.usd === null ? "" : current.usd.replace(/\.?0+$/, ""));
  const [confirming, setConfirming] = useState(false);
  const save = useMutation(
    trpc.settings.updateUnsettledCap.mutationOptions({
      onSuccess: async () => {
        setConfirming(false);
        await Promise.all([qc.invalidateQueries({ queryKey: trpc.settings.get.queryKey() }), qc.invalidateQueries({ queryKey: trpc.audit.list.pathKey() })]);
      },
    }),
  );
  const typed = value.trim();
  const valid = typed === "" || (DECIMAL_USD.test(typed) && Number(typed) <= Number(current.maxUsd));
  const now = current.usd === null ? `${usd(current.defaultUsd)} (the default)` : usd(current.usd);
  const next = typed === "" ? `${usd(current.defaultUsd)} (the default)` : usd(typed);
  return (
    <Section title={text.title} testId={`section-${text.testId}`}>
      <p className="mb-3 text-sm text-slate-600">{text.explain}</p>
      <form
        className="flex flex-wrap items-center gap-2 text-sm"
        onSubmit={(e) => {
          e.preventDefault();
          save.reset();
          setConfirming(true);
        }}
      >
        <Field label={`${text.label}, USD`} inline>
          <input
            className={`${INPUT} w-32 font-mono`}
            inputMode="decimal"
            value={value}
            onChange={(e) => setValue(e.target.value)}
            placeholder={current.defaultUsd.replace(/\.?0+$/, "")}
            aria-invalid={!valid}
            aria-describedby={`${text.testId}-help`}
            data-testid={`settings-${text.testId}`}
          />
        </Field>
        <button className={BUTTON_SECONDARY} disabled={!valid} data-testid={`settings-${text.testId}-review`}>
          Review
        </button>
        {save.isSuccess && (
          <span role="status" className="text-sm text-emerald-700" data-testid={`settings-${text.testId}-saved`}>
            Saved.
          </span>
        )}
      </form>
      <p id={`${text.testId}-help`} className="mt-2 text-xs text-slate-500" data-testid={`settings-${text.testId}-current`}>
        Now {now}. From 0 to {usd(current.maxUsd)}; leave it empty for the default.
      </p>
      <ConfirmDialog
        open={confirming}
        title={`Change the cap on answers before settlement (${text.label.toLowerCase()})`}
        changes={[{ label: text.label, before: now, after: next }]}
        confirmLabel="Change the cap"
        pending={save.isPending}
        error={save.error?.message ?? null}
        onConfirm={() => save.mutate({ capUsd: typed === "" ? null : typed, scope })}
        onClose={() => (setConfirming(false), save.reset())}
        testId={`${text.testId}-dialog`}
        otherSideSees={{
          who: "paying agents",
          what:
            typed !== "" && Number(typed) === 0
              ? "Every wallet-paid call waits for its transfer's inclusion on chain before it is answered (about a block)."
              : "Calls answered as soon as their transfer is signed, until the unsettled value reaches the cap; then they wait for inclusion.",
        }}
      >
        <p className="text-sm text-slate-700">{text.risk}</p>
      </ConfirmDialog>
    </Section>
  );
}

type MerchantInfo = { contactEmail: string | null; termsText: string | null; refundPolicy: string | null };

/** What payers read before paying: shown on the card checkout and the storefront's front page. */
function MerchantForm({ current }: { current: MerchantInfo }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const [contactEmail, setContactEmail] = useState(current.contactEmail ?? "");
  const [termsText, setTermsText] = useState(current.termsText ?? "");
  const [refundPolicy, setRefundPolicy] = useState(current.refundPolicy ?? "");
  const save = useMutation(
    trpc.settings.updateMerchant.mutationOptions({
      onSuccess: async () => {
        await Promise.all([qc.invalidateQueries({ queryKey: trpc.settings.get.queryKey() }), qc.invalidateQueries({ queryKey: trpc.audit.list.pathKey() })]);
      },
    }),
  );
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        save.reset();
        save.mutate({ contactEmail, termsText, refundPolicy });
      }}
      data-testid="merchant-form"
    >
      <Section title="What payers read" testId="section-merchant">
        <p className="mb-3 text-sm text-slate-600">
          Shown on the card checkout and on your storefront&apos;s front page, so a person paying for their agent knows who you are, how to reach you and what
          happens if something goes wrong. Whatever you write, a card charge for something not delivered is refunded in full automatically.
        </p>
        <div className="grid gap-3 text-sm">
          <Field label="Contact email">
            <input
              type="email"
              className={`${INPUT} max-w-md`}
              value={contactEmail}
              onChange={(e) => setContactEmail(e.target.value)}
              placeholder="support@example.com"
              data-testid="merchant-contact"
            />
          </Field>
          <Field label="Terms">
            <textarea
              className={`${INPUT} min-h-24`}
              maxLength={4000}
              value={termsText}
              onChange={(e) => setTermsText(e.target.value)}
              data-testid="merchant-terms"
            />
          </Field>
          <Field label="Refund policy">
            <textarea
              className={`${INPUT} min-h-20`}
              maxLength={2000}
              value={refundPolicy}
              onChange={(e) => setRefundPolicy(e.target.value)}
              data-testid="merchant-refund-policy"
            />
          </Field>
        </div>
        <div className="mt-4 flex flex-wrap items-center gap-3">
          <button className={BUTTON} disabled={save.isPending} data-testid="merchant-save">
            {save.isPending ? "Saving" : "Save what payers read"}
          </button>
          {save.isSuccess && (
            <span role="status" className="text-sm text-emerald-700" data-testid="merchant-saved">
              Saved.
            </span>
          )}
          {save.error && (
            <span role="alert" className="text-sm text-red-700" data-testid="merchant-error">
              {save.error.message}
            </span>
          )}
        </div>
      </Section>
    </form>
  );
}

export function Settings() {
  const trpc = useTRPC();
  const q = useQuery(trpc.settings.get.queryOptions());
  return (
    <>
      <PageHeader title="Settings">How the console links and values things. Changes are audited.</PageHeader>
      <Loaded query={q} what="the settings">
        {(s) => (
          <>
            <Section title="Storefront" testId="section-storefront">
              <dl className="grid gap-2 text-sm sm:grid-cols-[12rem_1fr]">
                <dt className="text-slate-500">Name</dt>
                <dd data-testid="settings-name">{s.storefront.name}</dd>
                <dt className="text-slate-500">Hosts</dt>
                <dd className="font-mono text-xs break-all">{s.storefront.hosts.join(", ")}</dd>
                <dt className="text-slate-500">Upstream signing secret</dt>
                <dd>{s.storefront.signingSecretSet ? "set" : "missing: priced calls answer 409 signing_secret_required"}</dd>
              </dl>
            </Section>
            <PayoutWallet />
            <CardProcessor />
            <OwnerOnly>
              <SettingsForm current={s} />
              <UnsettledCapForm current={s.unsettledCap} scope="wallet" />
              <UnsettledCapForm current={s.sellerUnsettledCap} scope="seller" />
              <MerchantForm current={s.merchant} />
              <LeaseSettingsForm current={s.creditLease} />
            </OwnerOnly>
            <Team />
            <TwoStep />
          </>
        )}
      </Loaded>
      <RecentChanges targetType="seller_settings" title="Recent settings changes" />
    </>
  );
}
