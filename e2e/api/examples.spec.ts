// The README's runnable examples, run as a reader would (`npx tsx examples/...`) against the built app and its chain:
// they must keep working as the API changes, and what they print must add up (USDC moved = the price billed).
import fs from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { mnemonicToAccount, privateKeyToAccount } from "viem/accounts";
import { runExample } from "../examples";
import { stackEnv } from "../stack";

/** The payer's USDC balance lines ("payer 0x...: 9999.98 USDC"), before and after, in micro-USDC. */
function balances(stdout: string): bigint[] {
  return [...stdout.matchAll(/^payer 0x[0-9a-fA-F]{40}: ([\d.]+) USDC$/gm)].map((m) => {
    const [whole, frac = ""] = m[1]!.split(".");
    return BigInt(whole!) * 1_000_000n + BigInt(frac.padEnd(6, "0"));
  });
}

const env = (baseURL: string) => ({ BASE_URL: baseURL, RPC_URL: stackEnv().RPC_URL! });

for (const [file, rail] of [
  ["examples/x402-paid-call.ts", "x402"],
  ["examples/mpp-paid-call.ts", "mpp"],
] as const) {
  test(`${file}: pays one call with the official ${rail} client; the USDC it moved is the price billed`, async ({ baseURL }) => {
    const run = await runExample(file, env(baseURL!));
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/ -> 200$/m);
    const billing = /^billing: (.*)$/m.exec(run.stdout)?.[1] ?? "";
    expect(billing).toMatch(new RegExp(`rail=${rail};.*status=charged`));
    const price = BigInt(/amount_usd=(\d+)\.(\d{6})/.exec(billing)!.slice(1).join(""));
    const [before, after] = balances(run.stdout);
    expect(before! - after!).toBe(price);
  });
}

test("examples/plan-credits.ts: buys credit, draws it with the bearer alone, reads it back and tops it up", async ({ baseURL }) => {
  const run = await runExample("examples/plan-credits.ts", env(baseURL!));
  expect(run.stderr).toBe("");
  expect(run.code).toBe(0);
  expect(run.stdout).toMatch(/^bought \$5\.000000 \(payment pay_[\w.-]+, x402\); balance \$5\.000000$/m);
  const left = [...run.stdout.matchAll(/-> 200; billing: .*rail=credits;.*amount_usd=0\.020000; status=charged;.*balance_usd=([\d.]+)/g)].map((m) => m[1]);
  expect(left).toEqual(["4.980000", "4.960000", "4.940000"]);
  expect(run.stdout).toMatch(/^entitlement research-credits: \$4\.940000 left of \$5\.000000, until \S+$/m);
  expect(run.stdout).toMatch(/^that buys 247 more aggregates calls at \$0\.020000$/m);
  expect(run.stdout).toMatch(/^topped up \$5\.000000; balance \$9\.940000$/m);
});

test("examples/plan-credits.ts: a refused step exits 1 and prints the storefront's error", async ({ baseURL }) => {
  // Below the plan's $5.00 minimum: the purchase is refused before any payment (SERVICE.md part 7's amount rules).
  const run = await runExample("examples/plan-credits.ts", { ...env(baseURL!), AMOUNT_USD: "1.00" });
  expect(run.code).toBe(1);
  expect(run.stderr).toMatch(/^purchase: expected HTTP 200, got 4\d\d$/m);
  expect(run.stderr).toMatch(/"error":\s*"\w+"/);
});

test("README, for agent developers: the first paid call runs as written, with a payer key the demo prints", async ({ baseURL }) => {
  const readme = fs.readFileSync("README.md", "utf8");
  const agentPath = readme.slice(readme.indexOf("## For agent developers"), readme.indexOf("### Client gotchas"));
  expect(agentPath).toMatch(/^npm ci && npm run demo /m);
  const [, key, file] = /^PAYER_PRIVATE_KEY=(0x[0-9a-f]{64}) npx tsx (examples\/[\w-]+\.ts)$/m.exec(agentPath) ?? [];
  // The demo prints payers #1-#9: anvil's accounts 1-9 (scripts/lib/local-chain.ts), funded on the e2e chain too.
  const demoPayers = [1, 2, 3, 4, 5, 6, 7, 8, 9].map(
    (i) => mnemonicToAccount("test test test test test test test test test test test junk", { addressIndex: i }).address,
  );
  expect(demoPayers).toContain(privateKeyToAccount(key as `0x${string}`).address);
  const run = await runExample(file!, { ...env(baseURL!), PAYER_PRIVATE_KEY: key! });
  expect(run.stderr).toBe("");
  expect(run.code).toBe(0);
  const billing = /^billing: (.*)$/m.exec(run.stdout)?.[1] ?? "";
  expect(billing).toMatch(/status=charged/);
  const [before, after] = balances(run.stdout);
  expect(before! - after!).toBe(BigInt(/amount_usd=(\d+)\.(\d{6})/.exec(billing)!.slice(1).join("")));
});

test("README lists every example in examples/, and a spec runs each as a reader would", () => {
  const readme = fs.readFileSync("README.md", "utf8");
  const specs = [...fs.readdirSync("e2e/api").map((f) => `e2e/api/${f}`), ...fs.readdirSync("e2e/ui").map((f) => `e2e/ui/${f}`)]
    .filter((f) => f.endsWith(".spec.ts"))
    .map((f) => fs.readFileSync(f, "utf8"));
  const examples = fs.readdirSync("examples").filter((f) => f.endsWith(".ts"));
  expect(examples.length).toBeGreaterThanOrEqual(6);
  for (const name of examples) {
    const file = path.posix.join("examples", name);
    expect(readme, `README lists ${file}`).toContain(`\`${file}\``);
    expect(
      specs.some((s) => s.includes(`"${file}"`)),
      `a spec runs ${file}`,
    ).toBe(true);
  }
});
