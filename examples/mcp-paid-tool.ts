// The storefront as an MCP server, from an agent's side: connect with the official MCP SDK, list the tools and what
// each costs, call a free tool, call a paid tool without payment and read its challenge, then pay it with mppx's
// McpClient (MPP's `evm` charge: USDC on Base) and print the data and the receipt.
//
//   npm run demo                                   # in one terminal: app + local chain (anvil as Base)
//   npx tsx examples/mcp-paid-tool.ts              # in another
//
// Settings (optional): BASE_URL (default http://127.0.0.1:3000), PAYER_PRIVATE_KEY (default: demo payer #7, anvil
// account 7 - a public test key, never use it on a real chain), RPC_URL (default http://127.0.0.1:8545).
// Exits 1 when a step does not answer as it should, with the storefront's answer on stderr.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { McpError, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { evm } from "mppx/client";
import { McpClient } from "mppx/mcp/client";
import { createPublicClient, erc20Abi, formatUnits, http, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { base } from "viem/chains";

const BASE_URL = process.env.BASE_URL ?? "http://127.0.0.1:3000";
const RPC_URL = process.env.RPC_URL ?? "http://127.0.0.1:8545";
const PAYER_PRIVATE_KEY = (process.env.PAYER_PRIVATE_KEY ?? "0x4bbbf85ce3377467afe5d46f804f221813b2bb87f24d81f60f1fcdbf7cbf4356") as Hex;
const USDC = "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913";
const TOOL = "aggregates";
const ARGS = { ticker: "AAPL", from: "2017-01-03", to: "2017-01-13" };

class StepFailed extends Error {}

function fail(step: string, answer: unknown): never {
  throw new StepFailed(`${step}: ${JSON.stringify(answer, null, 2)}`);
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

  // Stateless Streamable HTTP: every request is one POST with its JSON answer; no session to keep.
  const client = new Client({ name: "mcp-paid-tool-example", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${BASE_URL}/mcp`)));
  console.log(`connected to ${client.getServerVersion()?.name} at ${BASE_URL}/mcp`);

  const { tools } = await client.listTools();
  for (const t of tools) {
    const price = t._meta?.["x-payment-info"] as { priceUsd: string; meter: string; protocols: string[] } | undefined;
    console.log(`tool ${t.name}: ${price ? `${price.priceUsd} USD per call (meter ${price.meter}; ${price.protocols.join(", ")})` : "free"}`);
  }
  if (!tools.some((t) => t.name === TOOL)) fail("tools/list", `no ${TOOL} tool`);

  // A free tool: which tools fit a goal.
  const guide = (await client.callTool({ name: "guide", arguments: { goal: "daily stock prices" } })) as CallToolResult;
  if (guide.isError) fail("guide", guide.structuredContent ?? guide.content);
  const [top] = (guide.structuredContent as { recommendations: { operation: string; price_usd: string }[] }).recommendations;
  console.log(`guide recommends: ${top?.operation} at ${top?.price_usd} USD`);

  // The paid tool without payment: a tool error carrying the challenge in both bindings (x402's requirements as
  // structured content, MPP's challenges in _meta).
  const unpaid = (await client.callTool({ name: TOOL, arguments: ARGS })) as CallToolResult;
  const required = unpaid._meta?.["org.paymentauth/payment-required"] as
    { challenges: { method: string; intent: string; request: { amount: string } }[] } | undefined;
  if (!unpaid.isError || !required) fail(`${TOOL} unpaid`, unpaid);
  const x402 = (unpaid.structuredContent as { accepts?: { scheme: string; amount: string }[] }).accepts ?? [];
  console.log(`payment required: payment ${String(unpaid._meta?.["svc-payment-id"])}`);
  for (const c of required.challenges) console.log(`  mpp ${c.method} ${c.intent}: ${c.request.amount} (USDC base units)`);
  for (const a of x402) console.log(`  x402 ${a.scheme}: ${a.amount} (USDC base units)`);

  // Pay with mppx's McpClient: it reads the challenge, signs an EIP-3009 authorization for USDC on Base and retries
  // the same call with the credential in params._meta["org.paymentauth/credential"].
  console.log(`payer ${account.address}: ${await balance()} USDC`);
  McpClient.wrap(client, { methods: [evm.charge({ account, currencies: [evm.assets.base.USDC] })] });
  const paid = (await client.callTool({ name: TOOL, arguments: ARGS })) as CallToolResult & { receipt?: unknown };
  console.log(`tools/call ${TOOL} ${JSON.stringify(ARGS)} -> ${String(paid._meta?.["svc-http-status"])}`);
  if (paid.isError || !paid.receipt) fail(`${TOOL} paid`, paid);
  console.log("receipt:", JSON.stringify(paid.receipt));
  console.log(`billing: ${billingLine(paid._meta?.["svc-billing"])}`);
  console.log(JSON.stringify(paid.structuredContent, null, 2).slice(0, 800));
  console.log(`payer ${account.address}: ${await balance()} USDC`);
  await client.close();
}

main().catch((e: unknown) => {
  // A refused payment is a JSON-RPC error whose data says why (MPP's failure {reason, detail}, our error body).
  if (e instanceof McpError) console.error(`${e.message}\n${JSON.stringify(e.data, null, 2)}`);
  else console.error(e instanceof StepFailed ? e.message : e);
  process.exit(1);
});
