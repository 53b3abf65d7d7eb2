import type { Metadata } from "next";
import Link from "next/link";
import { listPersonApprovals } from "@/server/approvals/view-approvals";
import { listPersonCredentials } from "@/server/controls/list-person-credentials";
import { listApprovalThresholds } from "@/server/controls/set-approval-threshold";
import { listPersonWallets } from "@/server/wallet-caps/link-wallet";
import { LocalTime } from "../../_components/local-time";
import { CredentialControls, ThresholdForm } from "./controls-client";
import { currentPerson } from "./person";
import { LinkWallet, WalletCapsForm } from "./wallet-client";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Your agents' controls", robots: { index: false } };

const STATE: Record<string, string> = { live: "Live", frozen: "Frozen: its paid calls are refused", revoked: "Revoked for good" };

// /account/controls - the person's hand on the purse: freeze, unfreeze or revoke each agent credential they claimed
export default async function ControlsPage() {
  const person = await currentPerson();
  if (!person)
    return (
      <main className="mx-auto my-12 max-w-2xl px-4">
        <h1 className="text-xl font-semibold">Your agents&apos; controls</h1>
        <p className="mt-4">
          <Link className="text-indigo-700 underline" href="/account">
            Sign in on your account page
          </Link>{" "}
          to see and control the agents you claimed here.
        </p>
      </main>
    );
  const [credentials, thresholds, approvals, wallets] = await Promise.all([
    listPersonCredentials(person.humanId, person.sellerId),
    listApprovalThresholds(person.humanId, person.sellerId),
    listPersonApprovals(person.humanId, person.sellerId),
    listPersonWallets(person),
  ]);
  return (
    <main className="mx-auto my-8 max-w-2xl space-y-8 px-4">
      <header>
        <h1 className="text-xl font-semibold">Your agents&apos; controls</h1>
        <p className="mt-1 text-sm text-slate-600">
          Signed in as <span data-testid="signed-in-as">{person.email}</span> at {person.sellerName}. A freeze stops an agent&apos;s paid calls at once and can
          be undone; a revocation cannot.
        </p>
      </header>
      <AgentsSection credentials={credentials} thresholds={thresholds} />
      <ApprovalSection thresholds={thresholds} approvals={approvals} />
      <WalletsSection wallets={wallets} />
    </main>
  );
}

type Thresholds = Awaited<ReturnType<typeof listApprovalThresholds>>;

function AgentsSection({ credentials, thresholds }: { credentials: Awaited<ReturnType<typeof listPersonCredentials>>; thresholds: Thresholds }) {
  return (
    <section aria-labelledby="agents-heading">
      <h2 id="agents-heading" className="font-medium">
        Agents you claimed
      </h2>
      {credentials.length === 0 && <p className="mt-2 text-sm">You have not claimed an agent here yet.</p>}
      <ul className="mt-2 divide-y divide-slate-200 rounded border border-slate-200 bg-white">
        {credentials.map((c) => (
          <li key={c.id} className="flex flex-col gap-2 p-3 sm:flex-row sm:items-center sm:justify-between" data-testid="agent-row" data-credential={c.id}>
            <div className="min-w-0">
              <p className="truncate font-mono text-sm">{c.id}</p>
              <p className="text-xs text-slate-600">
                {c.kind.replace("_", " ")}
                {c.claimedAt && (
                  <>
                    , claimed <LocalTime iso={c.claimedAt} />
                  </>
                )}
              </p>
              <p className="text-sm" data-testid="agent-state">
                {STATE[c.state]}
              </p>
            </div>
            <div className="space-y-2">
              <CredentialControls credentialId={c.id} state={c.state} />
              {c.state !== "revoked" && <ThresholdForm credentialId={c.id} current={thresholds[c.id] ?? null} label="Approve calls over" />}
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}

function ApprovalSection({ thresholds, approvals }: { thresholds: Thresholds; approvals: Awaited<ReturnType<typeof listPersonApprovals>> }) {
  return (
    <section aria-labelledby="approval-heading" className="space-y-2">
      <h2 id="approval-heading" className="font-medium">
        Approval above a threshold
      </h2>
      <p className="text-sm text-slate-600">
        A paid call over the threshold waits for you: we email you a link to approve or decline it, and your agent retries it once you approve. The lower of an
        agent&apos;s own threshold and this one applies.
      </p>
      <ThresholdForm credentialId={null} current={thresholds["*"] ?? null} label="For all your agents: approve calls over" />
      {approvals.length > 0 && (
        <ul className="divide-y divide-slate-200 rounded border border-slate-200 bg-white text-sm" data-testid="approvals">
          {approvals.map((a) => (
            <li key={a.id} className="flex flex-wrap justify-between gap-2 p-2">
              <Link className="font-mono break-all text-indigo-700 underline" href={`/account/approvals/${a.id}`}>
                {a.request}
              </Link>
              <span>
                ${a.amountUsd}, {a.state}
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function WalletsSection({ wallets }: { wallets: Awaited<ReturnType<typeof listPersonWallets>> }) {
  return (
    <section aria-labelledby="wallets-heading" className="space-y-2">
      <h2 id="wallets-heading" className="font-medium">
        Wallet caps
      </h2>
      <p className="text-sm text-slate-600">
        Link a wallet by signing a message with it; then x402 and MPP payments from it here stay within its caps, whichever agent sends them.
      </p>
      <ul className="space-y-3" data-testid="wallets">
        {wallets.map((w) => (
          <li key={w.wallet} className="rounded border border-slate-200 bg-white p-3" data-testid="wallet-row">
            <p className="font-mono text-sm break-all">{w.wallet}</p>
            <WalletCapsForm wallet={w.wallet} perCallUsd={w.perCallUsd} perDayUsd={w.perDayUsd} />
          </li>
        ))}
      </ul>
      <LinkWallet />
    </section>
  );
}
