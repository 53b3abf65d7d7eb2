// examples/x402-mcp-tool.ts run as a reader would (`npx tsx examples/x402-mcp-tool.ts`) against the built app and its
// chain: the MCP journey paid with x402 (the priced tools, the unpaid tool error carrying x402's requirements, paid with
// the official x402 client), and what it prints must add up (USDC moved = the price billed = the amount the client
// signed); a payer who holds no USDC makes it exit 1 with the reason.
import { expect, test } from "@playwright/test";
import { generatePrivateKey } from "viem/accounts";
import { runExample } from "../examples";
import { stackEnv } from "../stack";

const FILE = "examples/x402-mcp-tool.ts";
const env = (baseURL: string) => ({ BASE_URL: baseURL, RPC_URL: stackEnv().RPC_URL! });

/** The payer's USDC balance lines ("payer 0x...: 9999.98 USDC"), before and after, in micro-USDC. */
function balances(stdout: string): bigint[] {
  return [...stdout.matchAll(/^payer 0x[0-9a-fA-F]{40}: ([\d.]+) USDC$/gm)].map((m) => {
    const [whole, frac = ""] = m[1]!.split(".");
    return BigInt(whole!) * 1_000_000n + BigInt(frac.padEnd(6, "0"));
  });
}

test(`${FILE}: lists the priced tools, reads x402's requirements from the tool error, pays with the official x402 client; the USDC moved is the price billed`, async ({
  baseURL,
}) => {
  const run = await runExample(FILE, env(baseURL!));
  expect(run.stderr).toBe("");
  expect(run.code).toBe(0);
  // Priced tools only, each with its price and rails; the free tools are not listed.
  expect(run.stdout).toMatch(/^tool aggregates: 0\.020000 USD per call \(meter aggregates; x402, x402-batch, mpp, credits\)$/m);
  expect(run.stdout).not.toMatch(/^tool guide:/m);
  expect(run.stdout).toMatch(/^payment required: payment pay_[\w.-]+\.[\w-]{22}$/m);
  expect(run.stdout).toMatch(/^ {2}x402 exact on eip155:8453: 20000 of 0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913 to 0x[0-9a-fA-F]{40} \(USDC base units\)$/m);
  const signed = BigInt(/^paying with x402 exact: (\d+) \(USDC base units\)$/m.exec(run.stdout)![1]!);
  expect(run.stdout).toMatch(/ -> 200$/m);
  const receipt = JSON.parse(/^receipt: (.*)$/m.exec(run.stdout)![1]!);
  expect(receipt).toMatchObject({ success: true, network: "eip155:8453", transaction: expect.stringMatching(/^0x[0-9a-f]{64}$/) });
  const billing = /^billing: (.*)$/m.exec(run.stdout)?.[1] ?? "";
  expect(billing).toMatch(/rail=x402;.*status=charged/);
  expect(billing).toContain(`tx=${receipt.transaction}`);
  expect(run.stdout).toContain('"ticker": "AAPL"');
  const price = BigInt(/amount_usd=(\d+)\.(\d{6})/.exec(billing)!.slice(1).join(""));
  const [before, after] = balances(run.stdout);
  expect(before! - after!).toBe(price);
  expect(signed).toBe(price);
  // The receipt's payer is the wallet whose balance moved.
  expect(receipt.payer.toLowerCase()).toBe(/^payer (0x[0-9a-fA-F]{40}):/m.exec(run.stdout)![1]!.toLowerCase());
});

test(`${FILE}: a payer with no USDC is refused; the example exits 1 and prints why`, async ({ baseURL }) => {
  const run = await runExample(FILE, { ...env(baseURL!), PAYER_PRIVATE_KEY: generatePrivateKey() });
  expect(run.code).toBe(1);
  expect(run.stdout).toMatch(/^payment required: payment pay_[\w.-]+$/m);
  expect(run.stdout).toMatch(/^payer 0x[0-9a-fA-F]{40}: 0 USDC$/m);
  expect(run.stdout).not.toMatch(/^billing:/m);
  expect(run.stdout).not.toMatch(/^receipt:/m);
  // The storefront's refusal, with the reason the chain gave (the payer holds no USDC).
  expect(run.stderr).toMatch(/^aggregates paid: refused: /m);
  expect(run.stderr).toContain("insufficient_funds");
});
