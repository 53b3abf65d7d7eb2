// One answered request as the operator sees it: the access log line and the request metrics. Everything here is read
// from the response the route wrapper holds, so the paid path needs no hook of its own: the gateway already states what
// it did in `svc-billing` (payment, rail, operation, outcome), `svc-payment-id` and `Server-Timing` (upstream and
// settlement time), and every error answer is an AppError (respond.ts remembers which).
import type { AppError } from "../errors";
import { flatLogger } from "./logger";
import { metrics } from "./metrics";
import { scrubText } from "./redact";

export type ResponseFacts = {
  paymentId: string | null;
  rail: string | null;
  operation: string | null;
  /** svc-billing's status: charged, settlement_pending, released, refunded, settlement_failed, free. */
  billing: string | null;
  upstreamMs: number | null;
  settleMs: number | null;
};

/** `k=v; k=v` (svc-billing) as a map. */
function parseBilling(header: string | null): Record<string, string> {
  const out: Record<string, string> = {};
  if (!header) return out;
  for (const part of header.split(";")) {
    const i = part.indexOf("=");
    if (i > 0) out[part.slice(0, i).trim()] = part.slice(i + 1).trim();
  }
  return out;
}

/** The phases the access line and the metrics read from Server-Timing, each pattern compiled once. */
const PHASES = { upstream: /(?:^|,)\s*upstream;dur=([0-9.]+)/, settle: /(?:^|,)\s*settle;dur=([0-9.]+)/ };

/** One phase's duration from Server-Timing (`upstream;dur=3.4, settle;dur=4.1`), in milliseconds. */
function timing(header: string | null, name: keyof typeof PHASES): number | null {
  if (!header) return null;
  const m = PHASES[name].exec(header);
  return m ? Number(m[1]) : null;
}

export function responseFacts(headers: Headers): ResponseFacts {
  const billing = parseBilling(headers.get("svc-billing"));
  const st = headers.get("server-timing");
  return {
    paymentId: headers.get("svc-payment-id") ?? billing.payment ?? null,
    rail: billing.rail ?? null,
    operation: billing.operation ?? null,
    // A re-delivery of a payment charged before (resumable delivery) is its own outcome, not a second charge.
    billing: billing.replay === "true" ? "replayed" : (billing.status ?? null),
    upstreamMs: timing(st, "upstream"),
    settleMs: timing(st, "settle"),
  };
}

/**
 * The route a request matched, as its file names it: each parameter's value in the path replaced by its name
 * (`/payments/pay_123/pay` -> `/payments/[id]/pay`, `/api/v1/aggregates/AAPL` -> `/api/v1/[...path]`), so metrics carry
 * one label per route, not one per URL.
 */
export function routeTemplate(pathname: string, params: Record<string, string | string[]>): string {
  const segments = pathname.split("/").map((s) => {
    try {
      return decodeURIComponent(s);
    } catch {
      return s;
    }
  });
  for (const [name, value] of Object.entries(params)) {
    if (Array.isArray(value)) {
      if (!value.length) continue;
      for (let i = segments.length - value.length; i >= 1; i--) {
        if (value.every((v, j) => segments[i + j] === v)) {
          segments.splice(i, value.length, `[...${name}]`);
          break;
        }
      }
    } else {
      const i = segments.lastIndexOf(value);
      if (i >= 1) segments[i] = `[${name}]`;
    }
  }
  return segments.join("/") || "/";
}

/** Error codes a paid path answers when it turns a payment or a call down (the 402 funnel's refusals). */
const REFUSALS =
  /^(payment_|settlement_failed|rate_limit_exceeded|invalid_token|bearer_required|plan_required|usage_exhausted|access_not_found|identity_invalid)/;

export type AnsweredRequest = {
  requestId: string;
  method: string;
  route: string;
  path: string;
  status: number;
  durationMs: number;
  sellerId: string | null;
  headers: Headers;
  error: AppError | undefined;
  userAgent: string | null;
};

/** Polled by load balancers and Prometheus every few seconds: their access lines are debug, unless they fail. */
const POLLED = new Set(["/healthz", "/readyz", "/metrics"]);

/** The access line and the metrics of one answered request. */
export function observeRequest(r: AnsweredRequest): void {
  const facts = responseFacts(r.headers);
  const m = metrics();
  m.httpRequests.inc({ route: r.route, method: r.method, status: String(r.status) });
  m.httpDuration.observe({ route: r.route, method: r.method }, r.durationMs / 1000);
  const code = r.error?.code ?? (r.headers.get("content-type")?.startsWith("application/problem+json") ? "problem_details" : null);
  if (r.status === 402 && !code) m.challenges.inc({ route: r.route });
  else if (code && (REFUSALS.test(code) || code === "problem_details")) m.refusals.inc({ route: r.route, code });
  if (code === "rate_limit_exceeded") m.rateLimited.inc({ scope: String(r.error?.extra?.scope ?? "unknown") });
  const operation = facts.operation ?? "none";
  if (facts.billing && facts.billing !== "free") m.paidCalls.inc({ rail: facts.rail ?? "none", operation, outcome: facts.billing });
  if (facts.upstreamMs != null) m.upstreamDuration.observe({ operation }, facts.upstreamMs / 1000);
  if (facts.settleMs != null && facts.billing === "charged") m.settlement.observe({ rail: facts.rail ?? "none" }, facts.settleMs / 1000);
  const upstreamKind =
    code === "upstream_timeout"
      ? "timeout"
      : code === "upstream_unavailable"
        ? "unreachable"
        : (facts.billing === "released" || facts.billing === "refunded") && r.status >= 500
          ? "status_5xx"
          : null;
  if (upstreamKind) m.upstreamErrors.inc({ operation, kind: upstreamKind });

  // Every field below is a string or a number: the flat logger's top-level redaction is all it needs (logger.ts).
  const log = flatLogger();
  const level = r.status >= 500 ? "error" : POLLED.has(r.route) && r.status < 400 ? "debug" : "info";
  if (!log.isLevelEnabled(level)) return;
  log[level](
    {
      req_id: r.requestId,
      method: r.method,
      route: r.route,
      path: scrubText(r.path),
      status: r.status,
      duration_ms: Math.round(r.durationMs * 100) / 100,
      seller: r.sellerId,
      ...(facts.paymentId ? { payment_id: facts.paymentId } : {}),
      ...(facts.rail ? { rail: facts.rail } : {}),
      ...(facts.operation ? { operation: facts.operation } : {}),
      ...(facts.billing ? { billing: facts.billing } : {}),
      ...(facts.upstreamMs != null ? { upstream_ms: facts.upstreamMs } : {}),
      ...(code ? { error: code } : {}),
      ...(r.error?.reason ? { reason: r.error.reason } : {}),
      ...(r.userAgent ? { user_agent: scrubText(r.userAgent.slice(0, 200)) } : {}),
    },
    "request",
  );
}
