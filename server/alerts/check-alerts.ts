// The alert checks (one instance at a time: start-alert-loop.ts holds a lease). Each alert opens once per subject with
// its event in the same statement or transaction, and resolves when its cause is gone:
//  - settlement_delayed: a settlement still pending ALERT_SETTLEMENT_DELAY_SECONDS after the call (payment.settlement_delayed)
//  - refund_failed: a card refund the processor refused: the money must go back by hand (payment.action_required)
//  - upstream_failing: an operation whose paid calls failed upstream at ALERT_UPSTREAM_FAILURE_RATE or more over the last
//    ALERT_UPSTREAM_WINDOW_SECONDS, from ALERT_UPSTREAM_MIN_CALLS calls (operation.upstream_failing, then _recovered)
// (webhook_endpoint_disabled is opened by the webhook worker when it disables an endpoint.)
import { env } from "../env";
import { metrics } from "../observability/metrics";
import { findOpenAlerts, findUpstreamWindow, openAlert, openDelayedSettlements, openFailedRefunds, resolveAlert, resolveClearedAlerts } from "./alerts.queries";

const UPSTREAM_REASONS = new Set(["upstream_error", "upstream_timeout", "upstream_unreachable"]);

export type UpstreamHealth = {
  operation: string;
  window_seconds: number;
  calls: number;
  failures: number;
  failure_rate: number;
  reasons: Record<string, number>;
};

/** Per `seller:operation`, the window's decided paid calls and how many failed upstream, by reason. */
export async function upstreamHealth(windowSeconds: number): Promise<Map<string, { sellerId: string; health: UpstreamHealth }>> {
  const out = new Map<string, { sellerId: string; health: UpstreamHealth }>();
  for (const r of await findUpstreamWindow(windowSeconds)) {
    const key = `${r.sellerId}:${r.operationKey}`;
    let entry = out.get(key);
    if (!entry) {
      entry = {
        sellerId: r.sellerId,
        health: { operation: r.operationKey, window_seconds: windowSeconds, calls: 0, failures: 0, failure_rate: 0, reasons: {} },
      };
      out.set(key, entry);
    }
    entry.health.calls += r.calls;
    if (r.reason && UPSTREAM_REASONS.has(r.reason)) {
      entry.health.failures += r.calls;
      entry.health.reasons[r.reason] = (entry.health.reasons[r.reason] ?? 0) + r.calls;
    }
  }
  for (const { health } of out.values()) health.failure_rate = health.calls ? Math.round((health.failures / health.calls) * 1000) / 1000 : 0;
  return out;
}

async function checkUpstreams(): Promise<{ opened: number; resolved: number }> {
  const e = env();
  const health = await upstreamHealth(e.ALERT_UPSTREAM_WINDOW_SECONDS);
  const failing = new Set<string>();
  let opened = 0;
  for (const [subject, { sellerId, health: h }] of health) {
    if (h.calls < e.ALERT_UPSTREAM_MIN_CALLS || h.failure_rate < e.ALERT_UPSTREAM_FAILURE_RATE) continue;
    failing.add(subject);
    if (
      await openAlert(
        { sellerId, kind: "upstream_failing", subject, details: h },
        { type: "operation.upstream_failing", subjectId: h.operation, data: { object: h } },
      )
    )
      opened++;
  }
  let resolved = 0;
  for (const a of await findOpenAlerts("upstream_failing")) {
    if (failing.has(a.subject)) continue;
    const operation = a.subject.slice(a.sellerId.length + 1);
    const h = health.get(a.subject)?.health ?? {
      operation,
      window_seconds: e.ALERT_UPSTREAM_WINDOW_SECONDS,
      calls: 0,
      failures: 0,
      failure_rate: 0,
      reasons: {},
    };
    if (await resolveAlert(a.id, { sellerId: a.sellerId, type: "operation.upstream_recovered", subjectId: operation, data: { object: h } })) resolved++;
  }
  return { opened, resolved };
}

export async function checkAlerts(): Promise<{ opened: Record<string, number>; resolved: number }> {
  const e = env();
  const delayed = await openDelayedSettlements(e.ALERT_SETTLEMENT_DELAY_SECONDS, 200);
  const refunds = await openFailedRefunds(100);
  const cleared = await resolveClearedAlerts();
  const upstreams = await checkUpstreams();
  const opened = { settlement_delayed: delayed.length, refund_failed: refunds.length, upstream_failing: upstreams.opened };
  for (const [kind, n] of Object.entries(opened)) if (n) metrics().alertsOpened.inc({ kind }, n);
  return { opened, resolved: cleared + upstreams.resolved };
}
