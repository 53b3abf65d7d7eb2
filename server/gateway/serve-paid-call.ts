// One paid call through whichever rail carried the proof: accept (verify + lock) -> proxy -> decide -> charge.
// Pay only for success: an upstream 5xx, a timeout, an unreachable upstream or usage that cannot be billed releases
// the hold and charges nothing. The decision to charge is written to the outbox before the rail is asked to charge,
// so a crash at any point ends settled once or released, never both (the reconciler finishes it).
// A prepaid hold (a card checkout a human paid before this call) has nothing to charge: success marks it delivered
// under its lease, and every failure above refunds it in full instead of releasing it.
import { env } from "../env";
import { AppError } from "../errors";
import { chargeHeldPayment } from "../payments/settle-payment";
import { scheduleSettlement } from "../payments/payments.queries";
import type { Hold, PaidCall, Rail } from "../payments/rails/rail";
import type { CatalogMeter } from "../catalog/catalog";
import type { UpstreamTarget } from "./paid-call";
import { proxyUpstream, type UpstreamResult } from "./proxy-upstream";
import { parseUsageHeader } from "./usage-header";

export type UpstreamResponse = Extract<UpstreamResult, { type: "response" }>;

export type GatewayOutcome =
  | { type: "challenge"; call: PaidCall }
  | { type: "refused"; call: PaidCall; rail: Rail<unknown>; error: AppError; freshChallenge?: boolean }
  | { type: "declined"; call: PaidCall; rail: Rail<unknown>; reason?: string; detail?: string }
  | { type: "charged"; call: PaidCall; upstream: UpstreamResponse; hold: Hold; transaction: string | null; units: number; receipt: Record<string, string> }
  | { type: "settlement_pending"; call: PaidCall; upstream: UpstreamResponse; hold: Hold; units: number }
  | { type: "settlement_failed"; call: PaidCall; hold: Hold; reason: string }
  | {
      type: "released";
      call: PaidCall;
      hold: Hold;
      upstream: UpstreamResponse | null;
      reason: "upstream_timeout" | "upstream_unreachable" | "upstream_error" | "usage_error" | "released_meanwhile";
      usageError?: string;
      /** A prepaid hold: the money went back (a refund in full), rather than never moving. */
      refunded?: boolean;
    }
  | { type: "free"; upstream: UpstreamResponse };

export type Timings = { lap(name: string): void };

/** Crash-recovery tests only: die exactly here, with the state so far durably recorded. */
function faultPoint(point: "exit_after_lock" | "exit_after_outbox"): void {
  const e = env();
  if (e.NODE_ENV === "test" && e.GATEWAY_FAULT === point) process.exit(86);
}

/** What a paid call buys: the upstream's answer (a data call), or what the purchase delivers, and the meters to bill. */
export type Delivery = { deliver: () => Promise<UpstreamResult>; meters: CatalogMeter[] };

/** The delivery of a data call: its upstream, signed with the seller's secret. */
export function upstreamDelivery(target: UpstreamTarget, request: { headers: Headers; origin: string }): Delivery {
  return {
    deliver: () =>
      proxyUpstream({ url: target.url, method: target.method, signingSecret: target.signingSecret, requestHeaders: request.headers, origin: request.origin }),
    meters: target.catalog.meters,
  };
}

/** Requests whose upstream call may start before their payment is accepted: reads (RFC 9110's safe methods). */
const SAFE_METHODS = new Set(["GET", "HEAD"]);

export async function servePaidCall(call: PaidCall, rail: Rail<unknown>, proof: unknown, delivery: Delivery, timings: Timings): Promise<GatewayOutcome> {
  // A read paid by a proof that has lately been paying (prepaid credit that covered the last calls) starts its upstream
  // while the rail reserves: the call then waits for the slower of the two, not both. The answer still goes out only
  // if the reservation holds; otherwise it is dropped unserved, and the refusal is the same as without the early start.
  // It starts on the next turn of the event loop, once the acceptance's statement is on its way: an upstream served in
  // this process (CPU work on this thread) then runs while the database answers, instead of holding up the statement.
  const early =
    call.purpose === "call" && SAFE_METHODS.has(call.method) && rail.deliverWhileAccepting?.(call, proof)
      ? new Promise<void>((r) => setImmediate(r)).then(delivery.deliver)
      : null;
  early?.catch(() => {});
  const accepted = await rail.accept(call, proof);
  timings.lap("accept");
  if (accepted.type === "refused") return { type: "refused", call, rail, error: accepted.error, freshChallenge: accepted.freshChallenge };
  if (accepted.type === "declined") return { type: "declined", call, rail, reason: accepted.reason, detail: accepted.detail };
  const { hold } = accepted;
  faultPoint("exit_after_lock");
  // Undo the hold: release it (nothing moved), or refund a prepaid one in full. True when refunded.
  const undo = async (reason: string, upstreamStatus?: number): Promise<boolean> => {
    if (hold.prepaid && rail.prepaid) return rail.prepaid.refund(hold, reason, upstreamStatus);
    await rail.release(hold.payment.id, reason, upstreamStatus);
    return false;
  };

  const upstream = await (early ?? delivery.deliver());
  timings.lap("upstream");
  if (upstream.type !== "response") {
    const reason = upstream.type === "timeout" ? "upstream_timeout" : "upstream_unreachable";
    const refunded = await undo(reason);
    return { type: "released", call, hold, upstream: null, reason, refunded };
  }
  if (upstream.status >= 500) {
    const refunded = await undo("upstream_error", upstream.status);
    return { type: "released", call, hold, upstream, reason: "upstream_error", refunded };
  }
  const meterKey = call.meterKey;
  const usage = parseUsageHeader(upstream.usageHeader, delivery.meters, meterKey);
  if (usage.type === "error") {
    const refunded = await undo(usage.code, upstream.status);
    return { type: "released", call, hold, upstream, reason: "usage_error", usageError: usage.code, refunded };
  }
  const units = meterKey ? (usage.units.get(meterKey) ?? 1) : 1;
  if (rail.capture) {
    // Reserved before the call; charged off the response path (the reconciler releases it if that never lands).
    rail.capture(hold, { units, upstreamStatus: upstream.status });
    timings.lap("capture");
    return { type: "charged", call, upstream, hold, transaction: null, units, receipt: rail.receipt(hold, null) };
  }
  if (hold.prepaid && rail.prepaid) {
    // Paid before the call: going out now, under the lease. A lost lease means another request took the delivery
    // over (this one outlived its lease); it must not also serve.
    if (!(await rail.prepaid.delivered(hold)))
      return {
        type: "refused",
        call,
        rail,
        freshChallenge: false,
        error: new AppError("payment_in_progress", { detail: "this payment is being delivered to another request", extra: { payment_id: hold.payment.id } }),
      };
    timings.lap("deliver");
    const reference = hold.prepaid.reference;
    return { type: "charged", call, upstream, hold, transaction: reference, units, receipt: rail.receipt(hold, reference) };
  }
  if (!(await scheduleSettlement(hold.payment.id, upstream.status, units, env().PAYMENT_LEASE_SECONDS)))
    return { type: "released", call, hold, upstream, reason: "released_meanwhile" };
  faultPoint("exit_after_outbox");
  timings.lap("schedule");

  const settled = await chargeHeldPayment(hold.rail, hold.payment, { retry: false, attempts: 1, then: "consumed" });
  timings.lap("settle");
  if (settled.type === "failed") return { type: "settlement_failed", call, hold, reason: settled.reason };
  // Served; the charge did not confirm in time. The outbox row stays pending and the reconciler finishes it.
  if (settled.type !== "settled") return { type: "settlement_pending", call, upstream, hold, units };
  return { type: "charged", call, upstream, hold, transaction: settled.transaction, units, receipt: rail.receipt(hold, settled.transaction) };
}
