// A data tool call through the one paid-call pipeline (server/gateway/run-paid-call.ts), as the HTTP gateway runs it:
// priced and validated as the HTTP call it stands for, its proof read by the rails registry from the headers the
// tool call's `_meta` (or the MCP request's bearer) was adapted to, accepted, delivered, charged or released by the
// same code, and the outcome rendered in the MCP bindings' shapes (payment/render-tool-outcome.ts).
import type { DataTool } from "../discovery/mcp-tools";
import { AppError } from "../errors";
import { priceDataCall } from "../gateway/paid-call";
import type { PaidOutcome } from "../gateway/paid-outcome";
import { issueChallenge } from "../gateway/issue-challenge";
import { refusalCause, runPaidCall } from "../gateway/run-paid-call";
import type { RouteContext } from "../http/route";
import { mcpBinding, type PaymentProof } from "../payments/rails";
import type { ToolCallProof } from "./payment/read-tool-call-proof";
import { renderToolChallenge, renderToolOutcome, type RenderOptions, type ToolAnswer } from "./payment/render-tool-outcome";
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
  // Priced as the HTTP call it stands for, recorded as a tool call: the payment row says it came over MCP.
  const asHttp = await priceDataCall(callCtx);
  const priced = asHttp.type === "free" ? asHttp : { ...asHttp, call: { ...asHttp.call, transport: "mcp" as const } };
  // The arguments addressed another operation's path (a path parameter holding a slash, say): not this tool's call.
  if ((priced.type === "free" ? priced.operationKey : priced.call.operationKey) !== tool.operation.key)
    throw new AppError("invalid_request", { reason: "invalid_parameter", detail: `the arguments do not address ${tool.name}` });

  return runPaidCall<ToolAnswer>({
    proofs: callCtx.req.headers,
    // A _meta value that is not its binding's object is the malformed header of that binding's rail: refused by the
    // pipeline, so it spends the client's budget and is a funnel fact exactly as over HTTP.
    ...(proof.type === "malformed" ? { malformed: malformedProof(proof) } : {}),
    client: callCtx.clientAddress,
    price: async () => priced,
    render: (o) => renderPaidOutcome(o, render),
  });
}

const answersWithRequirements = (binding: string) => mcpBinding(binding)?.binding.refusals === "requirements";

function malformedProof(proof: Extract<ToolCallProof, { type: "malformed" }>): Extract<PaymentProof, { type: "malformed" }> {
  // The rail answering for the binding refuses it. x402's binding answers a refused payload with fresh requirements;
  // MPP's -32602 and a checkout's error carry none.
  const bound = mcpBinding(proof.binding);
  if (!bound) throw new Error(`no MCP binding "${proof.binding}"`);
  return { type: "malformed", rail: bound.rail, error: proof.error, freshChallenge: answersWithRequirements(proof.binding) };
}

async function renderPaidOutcome(o: PaidOutcome, render: RenderOptions): Promise<ToolAnswer> {
  if (o.type === "challenge") return renderToolChallenge(o.challenge, render);
  // x402's MCP binding answers a refused payment with fresh requirements, also where the HTTP rail does not make any.
  if (o.type === "refused" && !o.challenge && o.rail && answersWithRequirements(render.binding))
    return renderToolOutcome({ ...o, challenge: await issueChallenge(o.call, { refused: refusalCause(o.error) }) }, render);
  return renderToolOutcome(o, render);
}
