// The MCP renderer of the paid path: every outcome of a paid tool call (the same outcomes an HTTP call has, see
// server/gateway/serve-paid-call.ts) as the tool result or JSON-RPC error each payment binding expects. The HTTP
// renderer (server/gateway/render-outcome.ts) is its twin; what it puts in headers goes in `_meta` here.
//
// The unpaid answer serves both bindings at once. x402's MCP clients read only a tool result (`isError`, the
// PaymentRequired as structured content and as JSON text); mppx's McpClient reads the JSON-RPC error -32042 *or* a
// tool result whose `_meta["org.paymentauth/payment-required"]` holds the challenges. One tool result carrying both
// is therefore understood by both, and a model driving a plain MCP client reads why the call was not served. Clients
// that implement only the MPP draft's JSON-RPC error ask for it (`challengeAs: "error"`, /mcp?payment-required=error).
// Refusals follow the binding the proof came in: an MPP credential's is MPP's JSON-RPC error (-32602 malformed,
// -32043 verification failed, with fresh challenges), an x402 payload's a tool result with fresh requirements.
import { ErrorCode, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { AppError } from "../../errors";
import type { Delivered, PaidOutcome } from "../../gateway/paid-outcome";
import { microsToUsd } from "../../lib/money";
import type { Challenge } from "../../payments/create-challenge";
import { mcpBinding, mcpBindings, RAILS } from "../../payments/rails";
import {
  BILLING_KEY,
  INVALID_PARAMS_CODE,
  MPP_PAYMENT_REQUIRED_CODE,
  MPP_PAYMENT_REQUIRED_KEY,
  MPP_VERIFICATION_FAILED_CODE,
  PAYMENT_ID_KEY,
  STATUS_KEY,
  type Binding,
} from "./bindings";
import { toMcpPaymentRequired } from "./payment-required";

/** A tool call's answer as a value: a result, or the JSON-RPC error the server answers instead (thrown as McpError). */
export type ToolAnswer = { type: "result"; result: CallToolResult } | { type: "error"; code: number; message: string; data: Record<string, unknown> };

export type RenderOptions = { binding: Binding; challengeAs?: "result" | "error" };

const PROBLEMS = "https://paymentauth.org/problems/";

const result = (r: CallToolResult): ToolAnswer => ({ type: "result", result: r });

/** An error as a tool error: the error JSON as structured content and text, with the status HTTP would answer. */
export function renderToolError(error: AppError, meta: Record<string, unknown> = {}): ToolAnswer {
  const body = error.toBody();
  return result({
    isError: true,
    content: [{ type: "text", text: JSON.stringify(body) }],
    structuredContent: body,
    _meta: { [STATUS_KEY]: error.status, ...meta },
  });
}

/** How to retry, in the words of the bindings of the rails the 402 names (each binding once), then plan credit. */
function howToPay(rails: unknown): string {
  const names = Array.isArray(rails) ? rails.map(String) : [];
  const ways = mcpBindings()
    .filter(({ binding }) => binding.howToPay && mcpBindingRails(binding.name).some((r) => names.includes(r)))
    .map(({ binding }) => binding.howToPay!);
  return [...ways, "plan credit: connect with Authorization: Bearer <agent access token>"].join("; ");
}

/** The rails that name the binding `name`. */
function mcpBindingRails(name: string): string[] {
  return RAILS.filter((r) => r.mcp?.some((b) => b.name === name)).map((r) => r.name);
}

/** How the binding a proof came in answers its refusals (a plain tool error outside the rails' bindings). */
const refusalsOf = (binding: Binding) => mcpBinding(binding)?.binding.refusals ?? "error";

/**
 * The unpaid answer: one tool result that x402 and MPP clients both read (see the file comment), or MPP's JSON-RPC
 * error -32042 when asked for. `refusal` fields (a refused proof answered with a fresh challenge) override the body's.
 */
export function renderToolChallenge(c: Challenge, opts: RenderOptions, refusal?: AppError): ToolAnswer {
  const pr = toMcpPaymentRequired(c);
  const structured = refusal ? { ...pr.structured, ...refusal.toBody() } : pr.structured;
  const payment = structured.payment as { amount?: string; operation?: string; rails?: unknown } | undefined;
  const status = refusal?.status ?? 402;
  const mpp = pr.mppChallenges.length
    ? {
        httpStatus: status,
        challenges: pr.mppChallenges,
        problem: {
          type: `${PROBLEMS}payment-required`,
          title: "Payment Required",
          status,
          detail: String(structured.detail ?? "payment required"),
        },
      }
    : null;
  if (opts.challengeAs === "error" && mpp)
    return {
      type: "error",
      code: MPP_PAYMENT_REQUIRED_CODE,
      message: "Payment Required",
      data: { ...mpp, ...(pr.x402 ? { x402: pr.x402 } : {}), payment: structured.payment, detail: structured.detail },
    };
  const text = `Payment required: ${payment?.amount ?? "?"} USD for ${payment?.operation ?? "this tool"}. ${String(structured.detail ?? "")} Pay with ${howToPay(payment?.rails)}.`;
  return result({
    isError: true,
    // x402's binding: content[0] is the structured content as JSON text, for clients without structured content.
    content: [
      { type: "text", text: JSON.stringify(structured) },
      { type: "text", text },
    ],
    structuredContent: structured,
    _meta: {
      [STATUS_KEY]: status,
      [PAYMENT_ID_KEY]: c.paymentId,
      ...(mpp ? { [MPP_PAYMENT_REQUIRED_KEY]: mpp } : {}),
    },
  });
}

function billing(fields: Record<string, string | number | null | undefined>): Record<string, string | number> {
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== null && v !== undefined && v !== "")) as Record<string, string | number>;
}

/** The rails' receipt headers (the HTTP renderer's) as the bindings' `_meta` entries. */
export function receiptMeta(receipt: Record<string, string>): Record<string, unknown> {
  const lower = Object.fromEntries(Object.entries(receipt).map(([k, v]) => [k.toLowerCase(), v]));
  const out: Record<string, unknown> = {};
  for (const { binding } of mcpBindings()) Object.assign(out, binding.receiptMeta?.(lower));
  // Ours, on every rail: the JWS over the payment, the request and the body's SHA-256 (server/receipts).
  if (lower["svc-receipt"]) out["svc-receipt"] = lower["svc-receipt"];
  return out;
}

/** The upstream's answer as the tool's content: its JSON as structured content and as text; an error status is a tool error. */
export function upstreamResult(u: Pick<Delivered, "status" | "headers" | "body">, meta: Record<string, unknown>): CallToolResult {
  const type = u.headers.get("content-type") ?? "";
  const bytes = Buffer.from(u.body);
  const isError = u.status >= 400;
  if (type.startsWith("image/"))
    return { isError, content: [{ type: "image", data: bytes.toString("base64"), mimeType: type.split(";")[0]! }], _meta: { [STATUS_KEY]: u.status, ...meta } };
  const text = bytes.toString("utf8");
  let structured: Record<string, unknown> | undefined;
  if (/json/i.test(type)) {
    try {
      const v = JSON.parse(text) as unknown;
      // MCP's structured content is an object; an upstream array stays in the text.
      if (typeof v === "object" && v !== null && !Array.isArray(v)) structured = v as Record<string, unknown>;
    } catch {
      /* not JSON after all: the text alone */
    }
  }
  return { isError, content: [{ type: "text", text }], ...(structured ? { structuredContent: structured } : {}), _meta: { [STATUS_KEY]: u.status, ...meta } };
}

/** An MPP credential that cannot be read: MPP's invalid params (-32602), as mppx's server transport answers it. */
export function renderMalformedCredential(error: AppError): ToolAnswer {
  return { type: "error", code: INVALID_PARAMS_CODE, message: "Invalid params", data: { detail: error.detail ?? error.message, ...error.toBody() } };
}

/**
 * URLElicitationRequiredError (MCP 2025-11-25, elicitation): the person completes the approval at the URL, out of band,
 * and the client retries the tool call. The error's body (approvalId, approvalUrl, expiresAt) rides beside it. mppx reads
 * -32042 as payment only when it carries challenges, which this never does.
 */
export function renderApprovalElicitation(error: AppError): ToolAnswer {
  const body = error.toBody();
  const elicitation = {
    mode: "url",
    elicitationId: String(body.approvalId),
    url: String(body.approvalUrl),
    message: `Your agent asks to pay $${String(body.amountUsd)}, over the approval threshold you set. Approve or decline it here.`,
  };
  return { type: "error", code: ErrorCode.UrlElicitationRequired, message: "URL elicitation required", data: { elicitations: [elicitation], ...body } };
}

/** A refused proof, in the terms of the binding it came in. `fresh`: the new challenge the pipeline made for it, if any. */
function renderRefusal(o: Extract<PaidOutcome, { type: "refused" }>, opts: RenderOptions): ToolAnswer {
  const { error } = o;
  const fresh = o.challenge;
  // Held for the person's approval: MCP's URL-mode elicitation (-32042), the approval page its URL (server/approvals).
  if (error.code === "approval_required") return renderApprovalElicitation(error);
  // Refused before any rail read it (two proofs at once), or over a rate limit (the proof unjudged, retry_after says
  // when to come back): a plain tool error in every binding, with the status HTTP answers (429).
  // A person's budget (budget_exceeded) likewise refuses before any proof is judged.
  if (!o.rail || error.code === "rate_limit_exceeded" || error.code === "budget_exceeded") return renderToolError(error);
  if (refusalsOf(opts.binding) === "jsonrpc") {
    if (error.reason === "malformed_credential" || error.reason === "malformed_payment") return renderMalformedCredential(error);
    const problem = o.rail.refusal?.problemType?.(error) ?? { type: `${PROBLEMS}verification-failed`, title: "Verification Failed" };
    return {
      type: "error",
      code: MPP_VERIFICATION_FAILED_CODE,
      message: "Payment Verification Failed",
      data: {
        httpStatus: error.status,
        challenges: fresh ? toMcpPaymentRequired(fresh).mppChallenges : [],
        failure: { reason: error.reason ?? error.code, detail: error.detail ?? error.message },
        problem: { ...problem, status: error.status, detail: error.detail ?? error.message },
        ...error.toBody(),
      },
    };
  }
  // The others (x402's binding among them): a tool error; with fresh requirements when the pipeline made a new challenge for it.
  return fresh ? renderToolChallenge(fresh, { ...opts, challengeAs: "result" }, error) : renderToolError(error);
}

/** Every outcome of a paid tool call. Thrown programming errors only for outcomes that are rendered elsewhere. */
export function renderToolOutcome(o: PaidOutcome, opts: RenderOptions): ToolAnswer {
  if (o.type === "free") return result(upstreamResult(o.delivered, { [BILLING_KEY]: billing({ status: "free", amount_usd: "0.000000" }) }));
  if (o.type === "challenge") return renderToolChallenge(o.challenge, opts);
  if (o.type === "proven") throw new Error("a $0 wallet proof is not a tool call's outcome");
  if (o.type === "refused") return renderRefusal(o, opts);

  const { call, hold } = o;
  const id = hold.payment.id;
  const common = { payment: id, rail: hold.rail, operation: call.operationKey, meter: call.meterKey };
  switch (o.type) {
    case "charged":
      return result(
        upstreamResult(o.delivered, {
          ...receiptMeta(o.receipt),
          [PAYMENT_ID_KEY]: id,
          // A re-delivery of a charged call (the same proof again) charges nothing now: `replay: "true"`, as over HTTP.
          [BILLING_KEY]: billing({
            ...common,
            units: o.replay ? undefined : o.units,
            amount_usd: microsToUsd(hold.payment.amountMicros),
            status: "charged",
            replay: o.replay ? "true" : undefined,
            charged_at: o.replay?.chargedAt.toISOString(),
            tx: o.transaction,
            ...hold.billing,
          }),
        }),
      );
    case "settlement_pending":
      return result(
        upstreamResult(o.delivered, {
          ...receiptMeta(o.receipt ?? {}),
          [PAYMENT_ID_KEY]: id,
          [BILLING_KEY]: billing({ ...common, units: o.units, amount_usd: microsToUsd(call.amountMicros), status: "settlement_pending", tx: o.transaction }),
        }),
      );
    case "settlement_failed": {
      const error = new AppError("settlement_failed", {
        detail: "the signed payment did not settle; call the tool again without payment for a fresh challenge",
        extra: { settlementReason: o.reason, payment_id: id },
      });
      const failed = billing({ ...common, status: "settlement_failed", charged_usd: "0.000000" });
      // x402's binding answers a payment that did not move with fresh requirements, as it answers a refused one.
      if (o.challenge && refusalsOf(opts.binding) === "requirements") {
        const fresh = renderToolChallenge(o.challenge, { ...opts, challengeAs: "result" }, error);
        if (fresh.type === "result") fresh.result._meta = { ...fresh.result._meta, [BILLING_KEY]: failed };
        return fresh;
      }
      return renderToolError(error, { [PAYMENT_ID_KEY]: id, [BILLING_KEY]: failed });
    }
    case "released": {
      // Why it was not charged, with the upstream's status, as over HTTP (render-outcome.ts).
      const why = { reason: o.reason, upstream_status: o.delivered?.status };
      const meta = {
        [PAYMENT_ID_KEY]: id,
        [BILLING_KEY]: o.refunded
          ? billing({ ...common, status: "refunded", refunded_usd: microsToUsd(call.amountMicros), charged_usd: "0.000000", ...why })
          : billing({ ...common, status: "released", charged_usd: "0.000000", ...why }),
      };
      if (!o.delivered)
        return renderToolError(
          new AppError(o.reason === "upstream_timeout" ? "upstream_timeout" : "upstream_unavailable", {
            detail: o.refunded
              ? "the upstream did not answer; your card payment is refunded in full. Call again for a fresh challenge."
              : "the upstream did not answer; you were not charged and this payment is released. Call again for a fresh challenge.",
            extra: { payment_id: id, ...(o.refunded ? { refunded: true } : {}) },
          }),
          meta,
        );
      return result(upstreamResult(o.delivered, { ...meta, ...(o.usageError ? { "svc-usage-error": o.usageError } : {}) }));
    }
  }
}
