// Every paid-call outcome as an HTTP Response, in one place: the upstream's own status and body passed through on a
// paid or released call, the rail's receipt only on a charge, `svc-billing` and `svc-payment-id` on every paid-path
// answer, `Cache-Control: private, no-store` wherever a response was paid for. Entry points with answers of their own
// (a purchase's grant, the quote's guide) render those and hand everything else to renderOutcome.
import { AppError } from "../errors";
import { errorResponse, json, refusalResponse } from "../http/respond";
import { microsToUsd } from "../lib/money";
import type { Challenge } from "../payments/create-challenge";
import type { Delivered, OutcomeMeta, PaidOutcome } from "./paid-outcome";

function billing(fields: Record<string, string | number | null | undefined>): string {
  return Object.entries(fields)
    .filter(([, v]) => v !== null && v !== undefined && v !== "")
    .map(([k, v]) => `${k}=${v}`)
    .join("; ");
}

function passThrough(r: Delivered, extra: Record<string, string>, paid: boolean): Response {
  // The upstream's headers, then ours in place of any of the same name: one list, made into the Response's headers once.
  const ours = new Map<string, string>();
  for (const k in extra) ours.set(k.toLowerCase(), extra[k]!);
  // A paid response must never be stored by a shared cache and replayed to someone who did not pay.
  if (paid) ours.set("cache-control", "private, no-store");
  const headers: [string, string][] = [];
  for (const [k, v] of r.headers) if (!ours.has(k)) headers.push([k, v]);
  for (const kv of ours) headers.push(kv);
  // An answer known as text goes out as that text (its UTF-8 is `body`): a Response made from bytes costs more.
  return new Response(r.status === 204 || r.status === 304 ? null : (r.text ?? r.body), { status: r.status, headers });
}

/** The 402: the challenge's body and every rail's headers. */
function renderChallenge(c: Challenge): Response {
  return json(c.body, { status: 402, headers: c.headers });
}

/**
 * A refused proof. Rails that answer refusals with a fresh challenge get one: the unpaid 402's offers (body and
 * headers, so x402's PAYMENT-REQUIRED and `accepts` are there for x402 clients to parse) under our error; MPP's as
 * RFC 9457 problem details. The status stays the one SERVICE.md part 7 gives the code (server/errors.ts).
 */
function renderRefusal(o: Pick<Extract<PaidOutcome, { type: "refused" }>, "error" | "rail" | "challenge">): Response {
  const { error, challenge: fresh } = o;
  if (!fresh) return errorResponse(error);
  const headers = new Headers(fresh.headers);
  for (const [k, v] of Object.entries(error.headers ?? {})) headers.set(k, v);
  const { error: _code, reason: _reason, detail: _detail, ...offers } = fresh.body;
  const problem = o.rail?.refusal?.problemType?.(error);
  if (!problem) return refusalResponse(error, { ...offers, ...error.toBody() }, headers);
  headers.set("content-type", "application/problem+json");
  return refusalResponse(error, { type: problem.type, title: problem.title, status: error.status, ...offers, ...error.toBody() }, headers);
}

export function renderOutcome(o: PaidOutcome, meta: OutcomeMeta = {}): Response {
  switch (o.type) {
    case "free":
      return passThrough(o.delivered, { "svc-billing": billing({ status: "free", amount_usd: "0.000000" }) }, false);
    case "challenge":
      return renderChallenge(o.challenge);
    case "refused":
      return renderRefusal(o);
    case "proven":
      throw new Error("a wallet proof's answer is the entry point's own (the quote renders its guide)");
  }
  const { call, hold } = o;
  const id = hold.payment.id;
  const common = { payment: id, rail: hold.rail, operation: call.operationKey, meter: call.meterKey };
  const timing: Record<string, string> = meta.serverTiming ? { "server-timing": meta.serverTiming } : {};
  switch (o.type) {
    case "charged":
      return passThrough(
        o.delivered,
        {
          ...o.receipt,
          // A replay names the payment that was charged, and charges nothing now: `replay=true`.
          "svc-billing": billing({
            ...common,
            units: o.replay ? undefined : o.units,
            amount_usd: microsToUsd(hold.payment.amountMicros),
            status: "charged",
            replay: o.replay ? "true" : undefined,
            charged_at: o.replay?.chargedAt.toISOString(),
            tx: o.transaction,
            ...hold.billing,
          }),
          "svc-payment-id": id,
          ...timing,
        },
        true,
      );
    case "settlement_pending":
      return passThrough(
        o.delivered,
        {
          ...o.receipt,
          "svc-billing": billing({ ...common, units: o.units, amount_usd: microsToUsd(call.amountMicros), status: "settlement_pending", tx: o.transaction }),
          "svc-payment-id": id,
          ...timing,
        },
        true,
      );
    case "settlement_failed": {
      const error = new AppError("settlement_failed", {
        detail: "the signed payment did not settle; retry from the start for a fresh challenge",
        extra: { settlementReason: o.reason, payment_id: id },
        headers: { "svc-payment-id": id, "svc-billing": billing({ ...common, status: "settlement_failed", charged_usd: "0.000000" }) },
      });
      return renderRefusal({ error, rail: o.rail, challenge: o.challenge });
    }
    case "released": {
      // A prepaid card payment is refunded in full (SERVICE.md part 3); anything else was never charged. `reason` says
      // why (an agent on a budget tells "the upstream said no" from "the upstream failed"), with the upstream's status.
      const why = { reason: o.reason, upstream_status: o.delivered?.status };
      const released = {
        "svc-billing": o.refunded
          ? billing({ ...common, status: "refunded", refunded_usd: microsToUsd(call.amountMicros), charged_usd: "0.000000", ...why })
          : billing({ ...common, status: "released", charged_usd: "0.000000", ...why }),
        "svc-payment-id": id,
      };
      if (!o.delivered)
        return errorResponse(
          new AppError(o.reason === "upstream_timeout" ? "upstream_timeout" : "upstream_unavailable", {
            detail: o.refunded
              ? "the upstream did not answer; your card payment is refunded in full. Retry with a fresh 402."
              : "the upstream did not answer; you were not charged and this payment is released. Retry with a fresh 402.",
            extra: { payment_id: id, ...(o.refunded ? { refunded: true } : {}) },
            headers: released,
          }),
        );
      return passThrough(o.delivered, { ...released, ...(o.usageError ? { "svc-usage-error": o.usageError } : {}) }, true);
    }
  }
}
