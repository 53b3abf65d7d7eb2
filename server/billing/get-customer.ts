// A customer's page (/console/customers/[id]): a wallet, a person (by email) or an agent credential, with what they paid
// (charges net of refunds, from the ledger), refunds, draws on credit, plans with credit left and their latest payments.
// Amounts leave as six-decimal USD strings; the page prints them in dollars and cents.
import { AppError } from "../errors";
import { microsToUsd } from "../lib/money";
import { RAILS } from "../payments/rails";
import { findCustomerPayments, findCustomerPlans, findCustomerTotals, type CustomerKey } from "./customer.queries";

export const CUSTOMER_PAYMENTS_SHOWN = 25;

const implicitRails = RAILS.filter((r) => r.implicit).map((r) => r.name as string);

/** What an id in the URL names: a wallet (0x + 40 hex), an agent credential (agt_...), an email; anything else is no one. */
export function customerKey(id: string): CustomerKey | null {
  const v = id.trim();
  if (/^0x[0-9a-f]{40}$/i.test(v)) return { kind: "wallet", value: v.toLowerCase() };
  if (/^agt_[A-Za-z0-9]{1,64}$/.test(v)) return { kind: "credential", value: v };
  if (/^[^\s@]{1,200}@[^\s@]{1,200}$/.test(v)) return { kind: "email", value: v.toLowerCase() };
  return null;
}

export async function getCustomer(sellerId: string, id: string) {
  const key = customerKey(id);
  if (!key) throw new AppError("not_found", { detail: "no such customer: give a wallet address, an email or an agent credential id" });
  const [totals, plans, payments] = await Promise.all([
    findCustomerTotals(sellerId, key),
    findCustomerPlans(sellerId, key),
    findCustomerPayments(sellerId, key, implicitRails, CUSTOMER_PAYMENTS_SHOWN + 1),
  ]);
  // Another seller's customer, or no one: the same answer, so ids cannot be probed across sellers.
  if (!totals.exists) throw new AppError("not_found", { detail: "no customer with this id has paid or registered here" });
  const live = plans.filter((p) => p.live);
  return {
    id: key.value,
    kind: key.kind,
    credentials: totals.credentials,
    cards: totals.cards,
    spend: {
      paidUsd: microsToUsd(totals.chargedMicros),
      refundedUsd: microsToUsd(totals.refundedMicros),
      netUsd: microsToUsd(totals.chargedMicros - totals.refundedMicros),
      payments: totals.charges,
      refunds: totals.refunds,
      drawnUsd: microsToUsd(totals.drawnMicros),
      draws: totals.draws,
    },
    creditLeftUsd: microsToUsd(live.reduce((s, p) => s + p.remainingMicros, 0n)),
    // Of the credit left, what the storefront's instances hold in leases now (server/payments/rails/credits).
    creditHeldByInstancesUsd: microsToUsd(live.reduce((s, p) => s + p.heldMicros, 0n)),
    plans: plans.map((p) => ({
      plan: p.plan,
      boughtUsd: microsToUsd(p.boughtMicros),
      remainingUsd: microsToUsd(p.live ? p.remainingMicros : 0n),
      expiresAt: p.expiresAt.toISOString(),
      live: p.live,
    })),
    firstAt: totals.firstAt?.toISOString() ?? null,
    lastAt: totals.lastAt?.toISOString() ?? null,
    payments: payments.slice(0, CUSTOMER_PAYMENTS_SHOWN).map((p) => ({
      id: p.id,
      createdAt: p.createdAt.toISOString(),
      operation: p.operationKey,
      amountUsd: microsToUsd(p.amountMicros),
      rail: p.rail,
      status: p.status,
      refundedUsd: p.refundedMicros === null ? null : microsToUsd(p.refundedMicros),
      refundedAt: p.refundedAt?.toISOString() ?? null,
    })),
    morePayments: payments.length > CUSTOMER_PAYMENTS_SHOWN,
  };
}
