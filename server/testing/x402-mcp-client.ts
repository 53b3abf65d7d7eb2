// An x402 MCP client for tests: the client side of x402's MCP transport (coinbase/x402 specs/transports-v2/mcp.md),
// over the official x402Client (@x402/core with @x402/evm's exact scheme), since the registry has no @x402/mcp:
//   1. call the tool; a payment-required answer is a tool result with `isError` whose `structuredContent` (or, for
//      clients without structured content, `content[0].text` as JSON) is the PaymentRequired;
//   2. createPaymentPayload over it (the client picks the requirement it can pay, with its spend controls);
//   3. retry the same call with the payload in `params._meta["x402/payment"]`; the settlement comes back in
//      `result._meta["x402/payment-response"]`.
// Imported by *.test.ts files only.
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { x402Client } from "@x402/core/client";
import { isPaymentRequired } from "@x402/core/schemas";
import type { PaymentPayload, PaymentRequired } from "@x402/core/types";
import { registerExactEvmScheme } from "@x402/evm/exact/client";
import { privateKeyToAccount } from "viem/accounts";

export const X402_PAYMENT_META_KEY = "x402/payment";

/** The PaymentRequired a tool result carries, as x402's MCP client reads it, or null when the result is no such answer. */
export function paymentRequiredOf(result: CallToolResult): PaymentRequired | null {
  if (!result.isError) return null;
  if (isPaymentRequired(result.structuredContent)) return result.structuredContent as PaymentRequired;
  const first = result.content[0];
  if (first?.type !== "text") return null;
  try {
    const parsed = JSON.parse(first.text) as unknown;
    return isPaymentRequired(parsed) ? (parsed as PaymentRequired) : null;
  } catch {
    return null;
  }
}

/** The official client (default spend controls: USDC on Base, at most $1 a payment) paying with `privateKey`. */
export function x402ClientFor(privateKey: string): x402Client {
  const client = new x402Client();
  registerExactEvmScheme(client, { signer: privateKeyToAccount(privateKey as `0x${string}`) });
  return client;
}

/** The payload the x402 client signs for a payment-required tool result (throws when the result is none). */
export async function x402McpPayload(result: CallToolResult, privateKey: string): Promise<PaymentPayload> {
  const required = paymentRequiredOf(result);
  if (!required) throw new Error(`not an x402 payment-required tool result: ${JSON.stringify(result)}`);
  return x402ClientFor(privateKey).createPaymentPayload(required);
}

/** A tool call paid with x402 when it answers payment required: the call, then one retry with the payload. */
export async function callToolWithX402(
  client: Client,
  params: { name: string; arguments?: Record<string, unknown> },
  privateKey: string,
): Promise<CallToolResult> {
  const first = (await client.callTool(params)) as CallToolResult;
  if (!paymentRequiredOf(first)) return first;
  const payload = await x402McpPayload(first, privateKey);
  return (await client.callTool({ ...params, _meta: { [X402_PAYMENT_META_KEY]: payload } })) as CallToolResult;
}
