// The storefront as an MCP server paid with x402, from an agent's side: connect with the official MCP SDK, list the
// priced tools, call one without payment and read x402's requirements from the tool error, pay them with the official
// x402 client (@x402/core with @x402/evm's `exact` scheme: USDC on Base), and print the data, the receipt, the billing
// and the USDC that moved. There is no x402 MCP client package on npm; the client side of x402's MCP transport
// (coinbase/x402 specs/transports-v2/mcp.md) is `paymentRequiredOf` and steps 1 to 3 below.
//
//   npm run demo                                   # in one terminal: app + local chain (anvil as Base)
//   npx tsx examples/x402-mcp-tool.ts              # in another
//
// Settings (optional): BASE_URL (default http://127.0.0.1:3000), PAYER_PRIVATE_KEY (default: demo payer #4, anvil
// account 4 - a public test key, never use it on a real chain), RPC_URL (default http://127.0.0.1:8545).
// Exits 1 when a step does not answer as it should (a refused payment included), with the storefront's answer on stderr.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { x402Client } from "@x402/core/client";
import { isPaymentRequired } from "@x402/core/schemas";
import type { PaymentPayload, PaymentRequired, SettleResponse } from "@x402/core/types";
import { registerExactEvmScheme } from "@x402/evm/exact/client";
import { createPublicClient, erc20Abi, formatUnits, http, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { base } from "viem/chains";

const BASE_URL = process.env.BASE_URL ?? "http://127.0.0.1:3000";
const RPC_URL = process.env.RPC_URL ?? "http://127.0.0.1:8545";
const PAYER_PRIVATE_KEY = (process.env.PAYER_PRIVATE_KEY ?? "0x47e179ec197488593b187f80a00eb0da91f1b9d0b13f8733639f19c30a34926a") as Hex;
const USDC = "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913";
const TOOL = "aggregates";
const ARGS = { ticker: "AAPL", from: "2017-01-03", to: "2017-01-13" };

// x402's MCP transport: the payload goes in the retry's params._meta, the settlement comes back in the result's _meta.
const PAYMENT_META_KEY = "x402/payment";
const PAYMENT_RESPONSE_META_KEY = "x402/payment-response";

class StepFailed extends Error {}

function fail(step: string, answer: unknown): never {
  throw new StepFailed(`${step}: ${JSON.stringify(answer, null, 2)}`);
}

/**
 * The x402 requirements of a payment-required tool error: its structured content, or (for a client that keeps only
 * text) its first text part as JSON. Null when the result is not one.
 */
function paymentRequiredOf(result: CallToolResult): PaymentRequired | null {
  if (!result.isError) return null;
  const first = result.content[0];
  const candidates = [result.structuredContent, first?.type === "text" ? first.text : undefined];
  for (const c of candidates) {
    try {
      const value: unknown = typeof c === "string" ? JSON.parse(c) : c;
      if (isPaymentRequired(value)) return value as PaymentRequired;
    } catch {
      // not JSON: not a payment-required answer
    }
  }
  return null;
}

/** `svc-billing` as the HTTP header of the same name prints it: `key=value; ...`. */
const billingLine = (b: unknown) =>
  Object.entries((b ?? {}) as Record<string, unknown>)
    .map(([k, v]) => `${k}=${String(v)}`)
    .join("; ");

async function main() {
  const account = privateKeyToAccount(PAYER_PRIVATE_KEY);
  const chain = createPublicClient({ chain: base, transport: http(RPC_URL) });
  const balance = async () => formatUnits(await chain.readContract({ address: USDC, abi: erc20Abi, functionName: "balanceOf", args: [account.address] }), 6);

  // The official x402 client with the `exact` EVM scheme: it pays only what it has a scheme for (here `exact` on any
  // EVM network), and at most $1 a payment unless raised (setSpendControls({ maxAmountPerPayment: "$5" })).
  const payer = new x402Client();
  registerExactEvmScheme(payer, { signer: account });

  // Stateless Streamable HTTP: every request is one POST with its JSON answer; no session to keep.
  const client = new Client({ name: "x402-mcp-tool-example", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${BASE_URL}/mcp`)));
  console.log(`connected to ${client.getServerVersion()?.name} at ${BASE_URL}/mcp`);

  // The priced tools: each carries its operation's price block (the OpenAPI `x-payment-info`) in _meta.
  const { tools } = await client.listTools();
  for (const t of tools) {
    const price = t._meta?.["x-payment-info"] as { priceUsd: string; meter: string; protocols: string[] } | undefined;
    if (price) console.log(`tool ${t.name}: ${price.priceUsd} USD per call (meter ${price.meter}; ${price.protocols.join(", ")})`);
  }
  if (!tools.some((t) => t.name === TOOL)) fail("tools/list", `no ${TOOL} tool`);

  // 1. The call without payment: a tool error whose structured content is x402's PaymentRequired.
  const unpaid = (await client.callTool({ name: TOOL, arguments: ARGS })) as CallToolResult;
  const required = paymentRequiredOf(unpaid);
  if (!required) fail(`${TOOL} unpaid`, unpaid);
  console.log(`payment required: payment ${String(unpaid._meta?.["svc-payment-id"])}`);
  for (const r of required.accepts) console.log(`  x402 ${r.scheme} on ${r.network}: ${r.amount} of ${r.asset} to ${r.payTo} (USDC base units)`);

  // 2. The client picks a requirement it can pay and signs it (an EIP-3009 transfer authorization of USDC, no gas).
  const payload: PaymentPayload = await payer.createPaymentPayload(required);
  console.log(`paying with x402 ${payload.accepted.scheme}: ${payload.accepted.amount} (USDC base units)`);
  console.log(`payer ${account.address}: ${await balance()} USDC`);

  // 3. The same call again, the payload in params._meta: served, settled on chain, the settlement in the result's _meta.
  const paid = (await client.callTool({ name: TOOL, arguments: ARGS, _meta: { [PAYMENT_META_KEY]: payload } })) as CallToolResult;
  console.log(`tools/call ${TOOL} ${JSON.stringify(ARGS)} -> ${String(paid._meta?.["svc-http-status"])}`);
  if (paid.isError) {
    // Refused: the error says why (and, when the payment can be tried again, fresh requirements come with it).
    const { error, reason, settlementReason, detail } = (paid.structuredContent ?? {}) as Record<string, unknown>;
    fail(`${TOOL} paid: refused`, { error, reason, settlementReason, detail, fresh_offer: paymentRequiredOf(paid) !== null });
  }
  const settlement = paid._meta?.[PAYMENT_RESPONSE_META_KEY] as SettleResponse | undefined;
  if (!settlement?.success) fail(`${TOOL} paid: no settlement`, paid._meta);
  console.log("receipt:", JSON.stringify(settlement));
  console.log(`billing: ${billingLine(paid._meta?.["svc-billing"])}`);
  console.log(JSON.stringify(paid.structuredContent, null, 2).slice(0, 800));
  console.log(`payer ${account.address}: ${await balance()} USDC`);
  await client.close();
}

main().catch((e: unknown) => {
  console.error(e instanceof StepFailed ? e.message : e);
  process.exit(1);
});
