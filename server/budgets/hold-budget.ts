// The budgets' one hook in the paid-call pipeline (server/gateway/run-paid-call.ts): a call by a known credential
// (its bearer on any rail: plan credit, or a wallet or card proof sent with the agent credential) is reserved against
// its budgets before any rail is asked, then confirmed with what was charged or released (README.md).
import { AppError } from "../errors";
import { newId } from "../lib/ids";
import { AGENT_AUTHORIZATION_HEADER, parseAgentAuthorization } from "../identity/parse-agent-authorization";
import { peekVerifiedToken, verifyAccessToken } from "../identity/verify-access-token";
import { budgetExceeded } from "./budget-refusal";
import { budgetWindows, dateOnly } from "./budget-windows";
import { confirmBudgetHold, emitBudgetExceeded, insertChargedCall, releaseBudgetHolds, reserveBudgetHold } from "./budgets.queries";
import { alertBudgetThresholds } from "./alert-budget-thresholds";

/** How long a hold may stay unsettled before the reconciler takes it as its instance's crash and releases it. */
/** What a budget reads of a paid call (payments/paid-call.ts PaidCall has these fields): budgets sit below payments, whose reconciler frees lapsed holds. */
export type BudgetedCall = { purpose: "call" | "purchase"; sellerId: string; operationKey: string; amountMicros: bigint };

export const BUDGET_HOLD_LEASE_MS = 10 * 60_000;

/** What the pipeline's serving step ended in, as far as a budget cares (ServeOutcome has this shape). */
export type Served = { type: string; hold?: { rail: string; payment: { id: string; amountMicros: bigint } }; replay?: unknown };

export type BudgetAdmission =
  | { type: "exceeded"; error: AppError }
  /** Admitted: `serve` runs the call, then confirms the hold (charged) or releases it (anything else, a throw too). */
  | { type: "admitted"; serve<T extends Served>(run: () => Promise<T>): Promise<T> };

const logEmitFailure = (e: unknown) => console.error("[budgets] could not write a budget.exceeded event:", e instanceof Error ? e.message : e);

const PASS: BudgetAdmission = { type: "admitted", serve: (run) => run() };

/**
 * What the pipeline already knows of the call's credential from the cached controls (server/controls, kept true by
 * LISTEN human_controls_changed): which it is (null: the call carries none), its person while claimed and live, and
 * whether a budget applies. Without it, the credential is read from the bearer and the reservation tells.
 */
export type BudgetGate = { credentialId: string | null; person: string | null; budgeted: boolean };

/** A charged call counted in no budget: only its line in the person's ledger (the account), after the charge. */
function ledgerOnly(call: BudgetedCall, credentialId: string, person: string): BudgetAdmission {
  return {
    type: "admitted",
    async serve(run) {
      const served = await run();
      const charged = chargedBy(served);
      if (charged) {
        const windows = budgetWindows();
        await insertChargedCall({
          holdId: newId("bgh"),
          sellerId: call.sellerId,
          credentialId,
          humanId: person,
          ...charged,
          day: dateOnly(windows.day),
          month: dateOnly(windows.month),
          operationKey: call.operationKey,
        });
      }
      return served;
    },
  };
}

/** The credential a request's bearer names at this seller, or null (no bearer, or one that does not verify). */
async function credentialOf(proofs: Headers, sellerId: string): Promise<string | null> {
  const parsed = parseAgentAuthorization(proofs.get("authorization"), proofs.get(AGENT_AUTHORIZATION_HEADER));
  if (parsed.type !== "token") return null;
  const peeked = peekVerifiedToken(parsed.token);
  const claims = peeked ?? (await verifyAccessToken(parsed.token).then((v) => (v.type === "valid" ? v.claims : null)));
  return claims && claims.sid === sellerId ? claims.sub : null;
}

/** Charged now (or its charge decided and on its way): what counts. A replay was charged before, not now. */
function chargedBy(served: Served): { chargedMicros: bigint; paymentId: string; rail: string } | null {
  if ((served.type !== "charged" && served.type !== "settlement_pending") || served.replay || !served.hold) return null;
  return { chargedMicros: served.hold.payment.amountMicros, paymentId: served.hold.payment.id, rail: served.hold.rail };
}

/**
 * Reserve the call's price against every budget of its credential and person, in the statement that admits it. A
 * purchase is not counted: it buys credit, which counts when a call draws it.
 */
export async function holdBudget(call: BudgetedCall, proofs: Headers, gate?: BudgetGate): Promise<BudgetAdmission> {
  if (call.purpose !== "call") return PASS;
  // No person (no credential, unclaimed, revoked): nothing to count. No budget applies: no budget statement, only the
  // ledger line of a charged call.
  if (gate && (!gate.credentialId || !gate.person)) return PASS;
  if (gate && !gate.budgeted) return ledgerOnly(call, gate.credentialId!, gate.person!);
  const credentialId = gate?.credentialId ?? (await credentialOf(proofs, call.sellerId));
  if (!credentialId) return PASS;
  const windows = budgetWindows();
  const reserved = await reserveBudgetHold({
    holdId: newId("bgh"),
    sellerId: call.sellerId,
    credentialId,
    amountMicros: call.amountMicros,
    day: dateOnly(windows.day),
    month: dateOnly(windows.month),
    leaseUntil: new Date(Date.now() + BUDGET_HOLD_LEASE_MS),
    operationKey: call.operationKey,
  });
  if (reserved.type === "no_person") return PASS;
  if (reserved.type === "exceeded") {
    const { error, facts } = budgetExceeded(reserved.budgets, call.amountMicros, windows);
    // The seller's event (webhooks too); the agent's answer does not wait for it, nor depend on it.
    if (facts) {
      const { budgetId, ...object } = facts;
      // Once per budget, limit and window (a per-call limit: per UTC day).
      const notice = `${object.budgetPeriod}:${object.limitUsd}:${object.resetsAt ?? dateOnly(windows.day)}`;
      emitBudgetExceeded({ sellerId: call.sellerId, credentialId, budgetId, notice, object: { operation: call.operationKey, ...object } }).catch(
        logEmitFailure,
      );
    }
    return { type: "exceeded", error };
  }
  const { holdId } = reserved;
  return {
    type: "admitted",
    async serve(run) {
      let served;
      try {
        served = await run();
      } catch (e) {
        await releaseBudgetHolds([holdId]);
        throw e;
      }
      const charged = chargedBy(served);
      if (!charged) await releaseBudgetHolds([holdId]);
      else alertBudgetThresholds(await confirmBudgetHold(holdId, charged));
      return served;
    },
  };
}
