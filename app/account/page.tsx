import { headers } from "next/headers";
import type { Metadata } from "next";
import { currentSession } from "@/server/auth/session";
import { ALL_AGENTS, getAccount, type Account, type BudgetView } from "@/server/budgets/get-account";
import { isAppError } from "@/server/errors";
import { storefrontOfHeaders } from "@/server/http/route";
import { formatUsd, microsToUsd } from "@/server/lib/money";
import { LocalTime } from "../_components/local-time";
import { SignOutButton } from "../_components/email-code-sign-in";
import { AccountSignIn, BudgetForm, type BudgetDefaults } from "./account-client";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Your agents", robots: { index: false } };

const limit = (v: bigint | null) => (v === null ? "" : microsToUsd(v).replace(/0{1,4}$/, ""));
const defaultsOf = (b: BudgetView | undefined): BudgetDefaults => ({
  perCallUsd: limit(b?.perCallMicros ?? null),
  perDayUsd: limit(b?.perDayMicros ?? null),
  perMonthUsd: limit(b?.perMonthMicros ?? null),
});
const section = "mt-6 rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:p-6";

// /account - the person who claimed agents here: their agents, spending, credit, receipts, CSV and budgets
export default async function AccountPage() {
  let store;
  try {
    store = await storefrontOfHeaders(await headers());
  } catch (e) {
    if (!isAppError(e)) throw e;
    return <Shell title="Your agents">This page is not served by a storefront.</Shell>;
  }
  const seller = store.catalog.seller;
  const session = await currentSession();
  const human = session?.user.kind === "human" && session.user.id ? session.user : null;
  if (!human)
    return (
      <Shell title={`Your agents at ${seller.name}`}>
        <p className="mt-3 text-slate-700">
          Sign in with the email you claimed your agents with to see what they spent here, their receipts, and to set their budgets.
        </p>
        <AccountSignIn />
      </Shell>
    );
  const account = await getAccount(seller.id, human.id!);
  return (
    <Shell title={`Your agents at ${seller.name}`}>
      <p className="mt-2 text-sm text-slate-700">
        Signed in as <span data-testid="signed-in-as">{human.email}</span>. <SignOutButton />
      </p>
      <Budgets account={account} />
      <Agents account={account} />
      <Spending account={account} />
      <PaidCalls account={account} />
    </Shell>
  );
}

function Shell({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <main className="mx-auto my-8 max-w-3xl px-4">
      <h1 className="text-xl font-semibold break-words">{title}</h1>
      {children}
    </main>
  );
}

function Budgets({ account }: { account: Account }) {
  const mine = account.budgets.find((b) => b.scope === "person");
  return (
    <section className={section} aria-labelledby="budget-all">
      <h2 id="budget-all" className="text-lg font-semibold">
        Budget for all your agents together
      </h2>
      <p className="mt-1 text-sm text-slate-700">
        Spent today {formatUsd(account.today.get(ALL_AGENTS) ?? 0n)}, this month {formatUsd(account.thisMonth.get(ALL_AGENTS) ?? 0n)} (days and months in UTC).
        A call that would pass a limit is refused before anything is charged (error <code>budget_exceeded</code>). You are emailed at 80 %, 90 % and 100 % of a
        daily or monthly limit.
      </p>
      <BudgetForm credential="" label="all your agents" defaults={defaultsOf(mine)} />
    </section>
  );
}

function Agents({ account }: { account: Account }) {
  if (account.credentials.length === 0) return <p className="mt-6">You have not claimed an agent at this storefront.</p>;
  return (
    <section className={section} aria-labelledby="agents">
      <h2 id="agents" className="text-lg font-semibold">
        Your agents
      </h2>
      <ul className="mt-2 divide-y divide-slate-200">
        {account.credentials.map((c) => {
          const credit = account.credit.filter((g) => g.credentialId === c.id);
          return (
            <li key={c.id} className="py-4" data-testid={`agent-${c.id}`}>
              <p className="font-mono text-sm break-all">{c.id}</p>
              <p className="text-sm text-slate-700">
                {c.kind.replace("_", " ")}
                {c.claimedAt && (
                  <>
                    , claimed <LocalTime iso={c.claimedAt.toISOString()} />
                  </>
                )}
                {c.revokedAt && ", revoked"}
              </p>
              <p className="mt-1 text-sm" data-testid={`spent-${c.id}`}>
                Spent today {formatUsd(account.today.get(c.id) ?? 0n)}, this month {formatUsd(account.thisMonth.get(c.id) ?? 0n)}
              </p>
              {credit.map((g, i) => (
                <p key={i} className="text-sm text-slate-700">
                  Plan {g.planName}: {formatUsd(g.remainingMicros)} of {formatUsd(g.amountMicros)} credit left, until{" "}
                  <LocalTime iso={g.expiresAt.toISOString()} />
                </p>
              ))}
              <BudgetForm credential={c.id} label={`agent ${c.id}`} defaults={defaultsOf(account.budgets.find((b) => b.subject === c.id))} />
            </li>
          );
        })}
      </ul>
    </section>
  );
}

function Spending({ account }: { account: Account }) {
  const rows = (by: "day" | "month") => (by === "day" ? account.daily : account.monthly);
  return (
    <section className={section} aria-labelledby="spending">
      <h2 id="spending" className="text-lg font-semibold">
        Spending by day and month (UTC)
      </h2>
      {(["day", "month"] as const).map((by) => (
        <div key={by} className="mt-3">
          <h3 className="font-medium">{by === "day" ? "Last 31 days" : "Last 12 months"}</h3>
          {rows(by).length === 0 ? (
            <p className="text-sm text-slate-700">Nothing spent.</p>
          ) : (
            <ul className="text-sm" data-testid={`spending-${by}`}>
              {rows(by).map((r) => (
                <li key={`${r.period.toISOString()}-${r.credentialId}-${r.rail}`} className="flex flex-wrap gap-x-3 border-b border-slate-100 py-1">
                  <span>{r.period.toISOString().slice(0, by === "day" ? 10 : 7)}</span>
                  <span className="font-mono break-all">{r.credentialId}</span>
                  <span>{r.rail || "unknown rail"}</span>
                  <span>
                    {r.calls} call{r.calls === 1 ? "" : "s"}
                  </span>
                  <span className="font-semibold">{formatUsd(r.micros)}</span>
                </li>
              ))}
            </ul>
          )}
        </div>
      ))}
    </section>
  );
}

function PaidCalls({ account }: { account: Account }) {
  return (
    <section className={section} aria-labelledby="calls">
      <h2 id="calls" className="text-lg font-semibold">
        Paid calls and receipts
      </h2>
      <p className="mt-1 text-sm">
        <a className="text-indigo-800 underline" href="/account/calls.csv" download data-testid="csv-link">
          Download every paid call as CSV
        </a>
      </p>
      {account.calls.length === 0 ? (
        <p className="mt-2 text-sm text-slate-700">No paid calls yet.</p>
      ) : (
        <ul className="mt-2 text-sm" data-testid="paid-calls">
          {account.calls.map((c) => (
            <li key={c.paymentId} className="border-b border-slate-100 py-2">
              <p className="flex flex-wrap gap-x-3">
                <LocalTime iso={c.at.toISOString()} />
                <span className="font-semibold">{formatUsd(c.micros)}</span>
                <span>{c.rail}</span>
                <span>{c.operationKey}</span>
              </p>
              <p className="font-mono break-all text-slate-700">
                {c.path}
                {c.query ? `?${c.query}` : ""}
              </p>
              <p className="flex flex-wrap gap-x-3 font-mono break-all">
                <span>{c.paymentId}</span>
                {c.hasReceipt && (
                  <>
                    <a className="text-indigo-800 underline" href={`/payments/${c.paymentId}/receipt`}>
                      svc-receipt
                    </a>
                    <a className="text-indigo-800 underline" href={`/payments/${c.paymentId}/receipt`} download={`receipt-${c.paymentId}.json`}>
                      download
                    </a>
                  </>
                )}
              </p>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
