// Every paid tool call outcome in each MCP binding's terms: the unpaid answer both bindings' clients read, refusals by
// the binding the proof came in, the upstream's JSON as structured content and text with the rails' receipts.
import { isPaymentRequired } from "@x402/core/schemas";
import { Challenge, Receipt } from "mppx";
import { describe, expect, it } from "vitest";
import { USDC_ADDRESS } from "../../chain/config";
import { AppError } from "../../errors";
import type { PaidOutcome } from "../../gateway/paid-outcome";
import type { Challenge as StorefrontChallenge } from "../../payments/create-challenge";
import { railFor } from "../../payments/rails";
import type { Hold, PaidCall } from "../../payments/rails/rail";
import { receiptMeta, renderToolChallenge, renderToolOutcome, upstreamResult, type ToolAnswer } from "./render-tool-outcome";

const PAY_TO = "0xBcd4042DE499D14e55001CcbB24a551F3b954096";
const x402Required = {
  x402Version: 2,
  error: "payment_required",
  resource: { url: "http://store.test/api/v1/aggregates/AAPL", description: "bars", mimeType: "application/json" },
  accepts: [
    { scheme: "exact", network: "eip155:8453", asset: USDC_ADDRESS, amount: "20000", payTo: PAY_TO, maxTimeoutSeconds: 300, extra: { challenge: "c" } },
  ],
};
const mppChallenge = (method: string, id: string) =>
  Challenge.from({
    id,
    realm: "store.test",
    method,
    intent: "charge",
    request: { amount: "20000", currency: USDC_ADDRESS, recipient: PAY_TO },
    expires: new Date(Date.now() + 300_000).toISOString(),
  });

/** A 402 as create-challenge.ts makes it: our body (with x402's v1 view), PAYMENT-REQUIRED and one WWW-Authenticate per MPP method. */
function storefrontChallenge(paymentId = "pay_1111111111111111", mppMethods = ["evm", "stripe"]): StorefrontChallenge {
  const headers = new Headers({
    "cache-control": "no-store",
    "svc-payment-id": paymentId,
    "PAYMENT-REQUIRED": Buffer.from(JSON.stringify(x402Required)).toString("base64"),
  });
  for (const [i, m] of mppMethods.entries()) headers.append("WWW-Authenticate", Challenge.serialize(mppChallenge(m, `id-${m}-${i}`)));
  return {
    paymentId,
    headers,
    body: {
      error: "payment_required",
      detail: "this call costs 0.020000 USD",
      payment: { id: paymentId, amount: "0.020000", operation: "aggregates", rails: ["x402", "mpp", "credits"] },
      x402Version: 1,
      accepts: [{ scheme: "exact", network: "base" }],
    },
  };
}

const call = { operationKey: "aggregates", meterKey: "aggregates", amountMicros: 20_000n } as PaidCall;
const hold = (rail: Hold["rail"]): Hold => ({
  rail,
  payment: { id: "pay_2222222222222222", sellerId: "sel_1", amountMicros: 20_000n, payTo: PAY_TO, network: null, asset: null, payer: null, railData: null },
});
const upstream = (status: number, body: unknown, type = "application/json") => ({
  type: "response" as const,
  status,
  headers: new Headers({ "content-type": type }),
  body: new TextEncoder().encode(typeof body === "string" ? body : JSON.stringify(body)).buffer as ArrayBuffer,
  usageHeader: null,
  ms: 1,
});
const resultOf = (a: ToolAnswer) => {
  if (a.type !== "result") throw new Error(`expected a tool result, got JSON-RPC error ${a.code}`);
  return a.result;
};

describe("renderToolChallenge", () => {
  it("answers one tool result read by both bindings: x402's PaymentRequired as structured content and JSON text, MPP's challenges in _meta", () => {
    const r = resultOf(renderToolChallenge(storefrontChallenge(), { binding: "none" }));
    expect(r.isError).toBe(true);
    const s = r.structuredContent as Record<string, unknown>;
    expect(isPaymentRequired(s)).toBe(true);
    expect(s).toMatchObject({ x402Version: 2, error: "payment_required", accepts: x402Required.accepts, payment: { id: "pay_1111111111111111" } });
    expect(r.content[0]).toEqual({ type: "text", text: JSON.stringify(s) });
    expect((r.content[1] as { text: string }).text).toMatch(/^Payment required: 0\.020000 USD for aggregates\./);
    const mpp = r._meta!["org.paymentauth/payment-required"] as { httpStatus: number; challenges: { id: string; method: string; request: unknown }[] };
    expect(mpp.httpStatus).toBe(402);
    expect(mpp.challenges.map((c) => c.method)).toEqual(["evm", "stripe"]);
    // Decoded as the MCP binding wants it: request as a JSON object, not base64url.
    expect(mpp.challenges[0]!.request).toEqual({ amount: "20000", currency: USDC_ADDRESS, recipient: PAY_TO });
    expect(r._meta!["svc-payment-id"]).toBe("pay_1111111111111111");
    expect(r._meta!["svc-http-status"]).toBe(402);
  });

  it("answers MPP's JSON-RPC error -32042 when asked, with the challenges in error.data", () => {
    const a = renderToolChallenge(storefrontChallenge(), { binding: "none", challengeAs: "error" });
    expect(a.type).toBe("error");
    expect(a).toMatchObject({ code: -32042, message: "Payment Required", data: { httpStatus: 402, x402: x402Required, problem: { status: 402 } } });
    expect(a.type === "error" && (a.data.challenges as unknown[]).length).toBe(2);
  });

  it("omits the MPP part when no MPP method was offered (and then cannot answer a JSON-RPC error)", () => {
    const r = resultOf(renderToolChallenge(storefrontChallenge("pay_3333333333333333", []), { binding: "none", challengeAs: "error" }));
    expect(r._meta!["org.paymentauth/payment-required"]).toBeUndefined();
    expect(isPaymentRequired(r.structuredContent)).toBe(true);
  });
});

describe("renderToolOutcome", () => {
  it("a charged call: the upstream's JSON as structured content and text, the receipt in each binding's key, the billing", () => {
    const x402Receipt = { success: true, transaction: "0xabc", network: "eip155:8453", payer: "0xpayer" };
    const r = resultOf(
      renderToolOutcome(
        {
          type: "charged",
          call,
          delivered: upstream(200, { ticker: "AAPL", data: { bars: [] } }),
          rail: railFor("x402"),
          hold: hold("x402"),
          transaction: "0xabc",
          units: 1,
          receipt: { "PAYMENT-RESPONSE": Buffer.from(JSON.stringify(x402Receipt)).toString("base64") },
        },
        { binding: "x402" },
      ),
    );
    expect(r.isError).toBe(false);
    expect(r.structuredContent).toEqual({ ticker: "AAPL", data: { bars: [] } });
    expect(JSON.parse((r.content[0] as { text: string }).text)).toEqual(r.structuredContent);
    expect(r._meta).toMatchObject({
      "x402/payment-response": x402Receipt,
      "svc-payment-id": "pay_2222222222222222",
      "svc-http-status": 200,
      "svc-billing": { status: "charged", rail: "x402", amount_usd: "0.020000", tx: "0xabc", units: 1, operation: "aggregates" },
    });
  });

  it("an upstream error is a tool error with the upstream's status, whatever its billing", () => {
    const r = resultOf(
      renderToolOutcome(
        {
          type: "charged",
          call,
          delivered: upstream(404, { error: "unknown_ticker" }),
          rail: railFor("credits"),
          hold: hold("credits"),
          transaction: null,
          units: 1,
          receipt: {},
        },
        { binding: "bearer" },
      ),
    );
    expect(r.isError).toBe(true);
    expect(r.structuredContent).toEqual({ error: "unknown_ticker" });
    expect(r._meta!["svc-http-status"]).toBe(404);
    const released = resultOf(
      renderToolOutcome(
        { type: "released", call, rail: railFor("mpp"), hold: hold("mpp"), delivered: upstream(503, { error: "down" }), reason: "upstream_error" },
        { binding: "mpp" },
      ),
    );
    expect(released.isError).toBe(true);
    expect(released._meta).toMatchObject({ "svc-http-status": 503, "svc-billing": { status: "released", charged_usd: "0.000000" } });
    expect(released._meta!["org.paymentauth/receipt"]).toBeUndefined();
    const timeout = resultOf(
      renderToolOutcome(
        { type: "released", call, rail: railFor("x402"), hold: hold("x402"), delivered: null, reason: "upstream_timeout" },
        { binding: "x402" },
      ),
    );
    expect(timeout.structuredContent).toMatchObject({ error: "upstream_timeout", payment_id: "pay_2222222222222222" });
    expect(timeout._meta!["svc-http-status"]).toBe(504);
  });

  it("refuses an MPP credential in MPP's terms: -32602 when malformed, -32043 with fresh challenges otherwise", () => {
    const mpp = railFor("mpp");
    const malformed = renderToolOutcome(
      { type: "refused", call, rail: mpp, error: new AppError("payment_required", { reason: "malformed_credential", detail: "bad" }) },
      { binding: "mpp" },
    );
    expect(malformed).toMatchObject({ type: "error", code: -32602, data: { error: "payment_required", detail: "bad" } });
    const replay = renderToolOutcome(
      { type: "refused", call, rail: mpp, error: new AppError("payment_consumed", { detail: "used" }), challenge: storefrontChallenge("pay_4444444444444444") },
      { binding: "mpp" },
    );
    expect(replay).toMatchObject({
      type: "error",
      code: -32043,
      message: "Payment Verification Failed",
      data: {
        httpStatus: 409,
        error: "payment_consumed",
        failure: { reason: "payment_consumed", detail: "used" },
        problem: { type: "https://paymentauth.org/problems/invalid-challenge", status: 409 },
      },
    });
    expect(replay.type === "error" && (replay.data.challenges as { method: string }[]).map((c) => c.method)).toEqual(["evm", "stripe"]);
  });

  it("refuses an x402 payload with fresh requirements carrying the reason, or as a plain tool error without a fresh challenge", () => {
    const x402 = railFor("x402");
    const error = new AppError("payment_required", { reason: "malformed_payment", detail: "not x402" });
    const fresh = resultOf(renderToolOutcome({ type: "refused", call, rail: x402, error, challenge: storefrontChallenge() }, { binding: "x402" }));
    expect(fresh.isError).toBe(true);
    expect(isPaymentRequired(fresh.structuredContent)).toBe(true);
    expect(fresh.structuredContent).toMatchObject({ error: "payment_required", reason: "malformed_payment", detail: "not x402" });
    expect(fresh._meta!["svc-http-status"]).toBe(402);
    const plain = resultOf(renderToolOutcome({ type: "refused", call, rail: x402, error }, { binding: "x402" }));
    expect(plain.structuredContent).toEqual({ error: "payment_required", reason: "malformed_payment", detail: "not x402" });
  });

  it("a settlement that failed serves nothing", () => {
    const r = resultOf(
      renderToolOutcome({ type: "settlement_failed", call, rail: railFor("x402"), hold: hold("x402"), reason: "insufficient_funds" }, { binding: "x402" }),
    );
    expect(r.isError).toBe(true);
    expect(r.structuredContent).toMatchObject({ error: "settlement_failed", settlementReason: "insufficient_funds" });
    expect(r.content).toHaveLength(1);
  });

  it("renders the pipeline's challenge outcome (no proof, or an implicit rail that covers nothing) as the unpaid answer", () => {
    const c = storefrontChallenge();
    expect(renderToolOutcome({ type: "challenge", call, challenge: c } as PaidOutcome, { binding: "none" })).toEqual(
      renderToolChallenge(c, { binding: "none" }),
    );
  });
});

describe("receipts and upstream answers", () => {
  it("turns the rails' receipt headers into the bindings' _meta entries", () => {
    const receipt = Receipt.from({ method: "evm", status: "success", reference: "0xtx", timestamp: new Date().toISOString(), challengeId: "id-1" } as never);
    const meta = receiptMeta({ "Payment-Receipt": Receipt.serialize(receipt) });
    expect(meta["org.paymentauth/receipt"]).toMatchObject({ method: "evm", status: "success", reference: "0xtx", challengeId: "id-1" });
    expect(receiptMeta({})).toEqual({});
  });

  it("keeps non-object JSON and non-JSON bodies as text, images as image content", () => {
    const arr = upstreamResult(upstream(200, [1, 2]), {});
    expect(arr.structuredContent).toBeUndefined();
    expect(arr.content[0]).toEqual({ type: "text", text: "[1,2]" });
    expect(upstreamResult(upstream(200, "plain", "text/plain"), {}).content[0]).toEqual({ type: "text", text: "plain" });
    const png = upstreamResult(upstream(200, "\x89PNG", "image/png"), {});
    expect(png.content[0]).toMatchObject({ type: "image", mimeType: "image/png" });
  });
});
