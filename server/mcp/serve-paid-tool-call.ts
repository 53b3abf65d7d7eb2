// A data tool call through the paid path: the seam between the MCP transport and the one paid-call pipeline.
//
// Today it prices the call as the HTTP gateway does, answers an unpaid call with the payment-required result (one
// challenge, every rail's offer, in both MCP bindings), refuses a malformed proof in its binding's terms, and serves a
// free operation. Accepting a proof, calling the upstream and charging (the gateway's serve-paid-call) is not wired
// here: it arrives with the unified pipeline (`runPaidCall(ctx, { price, deliver, render })`), which this function's
// paid branch is to call with `renderToolOutcome` as its renderer. Until then a tool call carrying a well-formed proof
// is answered `not_implemented` (501), never served unpaid and never charged.
import { recordPaymentRefusal } from "../analytics/record-payment-refusal";
import type { DataTool } from "../catalog/mcp-tools";
import { AppError } from "../errors";
import { priceCall } from "../gateway/paid-call";
import { proxyUpstream } from "../gateway/proxy-upstream";
import { enforceRateLimits } from "../gateway/rate-limit";
import type { RouteContext } from "../http/route";
import { createChallenge } from "../payments/create-challenge";
import { readPaymentProof, type PaymentProof } from "../payments/rails";
import type { ToolCallProof } from "./payment/read-tool-call-proof";
import {
  renderMalformedCredential,
  renderToolChallenge,
  renderToolError,
  renderToolOutcome,
  type RenderOptions,
  type ToolAnswer,
} from "./payment/render-tool-outcome";
import { toolCallContext } from "./tool-call-request";

export async function servePaidToolCall(
  ctx: RouteContext,
  tool: DataTool,
  args: unknown,
  proof: ToolCallProof,
  opts: Pick<RenderOptions, "challengeAs">,
): Promise<ToolAnswer> {
  const render: RenderOptions = { binding: proof.binding, challengeAs: opts.challengeAs };
  // Arguments are checked before the proof, as an HTTP call's parameters are (a 400 names the parameter first).
  const callCtx = toolCallContext(ctx, tool, args, proof.type === "read" ? proof.headers : new Headers());
  const priced = await priceCall(callCtx);
  // The arguments addressed another operation's path (a path parameter holding a slash, say): not this tool's call.
  if (priced.upstream.op.key !== tool.operation.key)
    throw new AppError("invalid_request", { reason: "invalid_parameter", detail: `the arguments do not address ${tool.name}` });

  if (priced.type === "free") {
    await enforceRateLimits({ sellerId: priced.seller.id });
    const u = priced.upstream;
    const upstream = await proxyUpstream({
      url: u.url,
      method: u.method,
      signingSecret: u.signingSecret,
      requestHeaders: callCtx.req.headers,
      origin: ctx.origin,
    });
    if (upstream.type === "timeout") throw new AppError("upstream_timeout", { detail: "the upstream did not answer in time" });
    if (upstream.type === "unreachable") throw new AppError("upstream_unavailable", { detail: "the upstream could not be reached" });
    return renderToolOutcome({ type: "free", upstream }, render);
  }

  const { call } = priced;
  const refusal = (rail: string | null, error: unknown) => recordPaymentRefusal({ sellerId: call.sellerId, rail, operationKey: call.operationKey, error });
  if (proof.type === "malformed") {
    // A _meta value that is not its binding's object, refused before any rail reads it (a funnel fact, as over HTTP).
    await refusal(null, proof.error);
    if (proof.binding === "mpp") return renderMalformedCredential(proof.error);
    if (proof.binding === "x402") return renderToolChallenge(await createChallenge(call), render, proof.error);
    return renderToolError(proof.error);
  }
  let found: PaymentProof;
  try {
    found = readPaymentProof(callCtx.req.headers);
  } catch (e) {
    await refusal(null, e);
    throw e;
  }
  await enforceRateLimits({ sellerId: call.sellerId });
  // Until the pipeline is wired, a bearer alone (plan credit, an implicit rail) is not drawn from: the unpaid answer.
  if (found.type === "none" || (found.type === "proof" && found.rail.implicit)) return renderToolChallenge(await createChallenge(call), render);
  if (found.type === "malformed") {
    await refusal(found.rail.name, found.error);
    // x402's binding answers an invalid payment with fresh requirements; MPP's with fresh challenges.
    const fresh = (found.freshChallenge ?? found.rail.refusal?.freshChallenge) || proof.binding === "x402" ? await createChallenge(call) : undefined;
    return renderToolOutcome(
      { type: "refused", call, rail: found.rail, error: found.error, freshChallenge: found.freshChallenge },
      { ...render, freshChallenge: fresh },
    );
  }
  // The pipeline's paid branch goes here (accept -> upstream -> charge or release), rendered by renderToolOutcome.
  return renderToolError(
    new AppError("not_implemented", {
      reason: "mcp_payment_not_enabled",
      detail: `paid tool calls are not served over MCP yet: nothing was charged. Call ${call.method} ${call.origin}${call.path}${call.canonicalQuery ? `?${call.canonicalQuery}` : ""} over HTTP (same price, same rails)`,
    }),
  );
}
