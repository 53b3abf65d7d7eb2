// examples/mcp-paid-tool.ts run as a reader would (`npx tsx examples/mcp-paid-tool.ts`) against the built app and its
// chain: the whole MCP journey (tools with prices, a free tool, the unpaid challenge, paid with mppx's McpClient), and
// what it prints must add up (USDC moved = the price billed); a payer who cannot pay makes it exit 1.
import { expect, test } from "@playwright/test";
import { generatePrivateKey } from "viem/accounts";
import { runExample } from "../examples";
import { stackEnv } from "../stack";

const FILE = "examples/mcp-paid-tool.ts";
const env = (baseURL: string) => ({ BASE_URL: baseURL, RPC_URL: stackEnv().RPC_URL! });

/** The payer's USDC balance lines ("payer 0x...: 9999.98 USDC"), before and after, in micro-USDC. */
function balances(stdout: string): bigint[] {
  return [...stdout.matchAll(/^payer 0x[0-9a-fA-F]{40}: ([\d.]+) USDC$/gm)].map((m) => {
    const [whole, frac = ""] = m[1]!.split(".");
    return BigInt(whole!) * 1_000_000n + BigInt(frac.padEnd(6, "0"));
  });
}

test(`${FILE}: lists the priced tools, calls a free one, reads the challenge, pays with mppx's McpClient; the USDC moved is the price billed`, async ({
  baseURL,
}) => {
  const run = await runExample(FILE, env(baseURL!));
  expect(run.stderr).toBe("");
  expect(run.code).toBe(0);
  expect(run.stdout).toMatch(/^tool guide: free$/m);
  expect(run.stdout).toMatch(/^tool aggregates: 0\.020000 USD per call \(meter aggregates; x402, x402-batch, mpp, credits\)$/m);
  expect(run.stdout).toMatch(/^guide recommends: aggregates at 0\.020000 USD$/m);
  expect(run.stdout).toMatch(/^payment required: payment pay_[\w.-]+$/m);
  expect(run.stdout).toMatch(/^ {2}mpp evm charge: 20000 \(USDC base units\)$/m);
  expect(run.stdout).toMatch(/^ {2}x402 exact: 20000 \(USDC base units\)$/m);
  expect(run.stdout).toMatch(/ -> 200$/m);
  expect(JSON.parse(/^receipt: (.*)$/m.exec(run.stdout)![1]!)).toMatchObject({ status: "success", method: "evm", reference: expect.stringMatching(/^0x/) });
  const billing = /^billing: (.*)$/m.exec(run.stdout)?.[1] ?? "";
  expect(billing).toMatch(/rail=mpp;.*status=charged/);
  expect(run.stdout).toContain('"ticker": "AAPL"');
  const price = BigInt(/amount_usd=(\d+)\.(\d{6})/.exec(billing)!.slice(1).join(""));
  const [before, after] = balances(run.stdout);
  expect(before! - after!).toBe(price);
});

test(`${FILE}: a payer with no USDC is refused; the example exits 1 and prints why`, async ({ baseURL }) => {
  const run = await runExample(FILE, { ...env(baseURL!), PAYER_PRIVATE_KEY: generatePrivateKey() });
  expect(run.code).toBe(1);
  expect(run.stdout).toMatch(/^payment required: payment pay_[\w.-]+$/m);
  expect(run.stdout).not.toMatch(/^billing:/m);
  // MPP's verification failure, with the reason the chain gave (the payer holds no USDC).
  expect(run.stderr).toMatch(/^MCP error -32043: Payment Verification Failed$/m);
  expect(run.stderr).toMatch(/"reason": "\w+"/);
});
