// A plan-covered call: the agent's bearer names a credential; its credit (or a free included unit of its human) pays
// the call's per-request price. One statement reserves it before the call; the rail captures it after a success and
// releases it after a failure, like a wallet payment's settle and release.
import { env } from "../../../env";
import { newId } from "../../../lib/ids";
import { microsToUsd } from "../../../lib/money";
import type { AgentClaims } from "../../../identity/issue-tokens";
import type { PaidCall } from "../rail";
import { hasCoveringGrant, reserveDraw, type DrawResult } from "./credits.queries";
import { forgetCoverage, noteCoverage, reservationTurn } from "./coverage-memo";

export type Draw =
  | { type: "reserved"; paymentId: string; amountMicros: bigint; billing: Record<string, string> }
  | { type: "uncovered"; reason?: "usage_exhausted"; detail: string }
  | { type: "credential_invalid" };

/** `early`: this call's upstream started before its reservation (coverage-memo.ts); it reserves ahead of the others. */
export async function drawCredits(call: PaidCall, agent: AgentClaims, opts: { early?: boolean } = {}): Promise<Draw> {
  if (!call.meterKey) return { type: "uncovered", detail: "this operation has no meter a plan could cover" };
  // Only a token issued after the claim names the human (a pre-claim token does not upgrade itself, part 5).
  const humanId = agent.agent_status === "claimed" ? (agent.hum ?? null) : null;
  const done = await reservationTurn(agent.sub, call.meterKey, { early: opts.early ?? false });
  let r: DrawResult;
  try {
    r = await reserveDraw({
      paymentId: newId("pay"),
      sellerId: call.sellerId,
      credentialId: agent.sub,
      humanId,
      method: call.method,
      path: call.path,
      query: call.canonicalQuery,
      operationKey: call.operationKey,
      meterKey: call.meterKey,
      priceMicros: call.amountMicros,
      includedUnits: call.includedUnits,
      leaseSeconds: env().PAYMENT_LEASE_SECONDS,
      transport: call.transport ?? "http",
    });
    if (r.type === "reserved" && r.source === "credit") noteCoverage(agent.sub, call.meterKey, r.remainingMicros);
    if (r.type !== "reserved") forgetCoverage(agent.sub, call.meterKey);
  } finally {
    done();
  }
  if (r.type === "credential_invalid") return r;
  if (r.type === "reserved")
    return r.source === "included"
      ? { type: "reserved", paymentId: r.paymentId, amountMicros: 0n, billing: { source: "included_units" } }
      : {
          type: "reserved",
          paymentId: r.paymentId,
          amountMicros: call.amountMicros,
          billing: { source: "credit", balance_usd: microsToUsd(r.remainingMicros) },
        };
  // Nothing covered it: say why, for the 402 (only on this path, never on a covered call).
  if (await hasCoveringGrant(call.sellerId, agent.sub, humanId, call.meterKey))
    return {
      type: "uncovered",
      reason: "usage_exhausted",
      detail: "your plan's credit does not cover this call any more: top up (POST /extend), or pay this call",
    };
  return { type: "uncovered", detail: "no plan of yours covers this meter; pay this call, or buy a plan that covers it (see `plans`)" };
}
