// Every data operation the built app sells, paid on every rail that sells it, over HTTP and over MCP, found the way an
// agent finds them: /openapi.json (every page), each operation's `x-example` (a call that answers 200 offline, and a
// call the offline data refuses where it declares one) and `x-payment-info` (its price and rails). A new operation
// is picked up with no line added here.
//   HTTP: x402 with the official @x402/fetch client, MPP with mppx, plan credit with a bearer, card by a hosted
//         checkout a person pays on the test processor's page (card only sells from $0.50); a $0 operation is served
//         unpaid. Each paid answer is a 200 with a `svc-receipt` that verifies against /oauth2/jwks.json over the
//         body received, and exactly one charge row in the ledger. A refused call is refused on every wallet and
//         credit rail with nothing charged: the payment released, no ledger row, the payer's USDC unchanged.
//   MCP:  every operation once, the rails rotated (x402 with the repo's x402 MCP client, MPP with mppx's McpClient,
//         plan credit with a bearer on the connection), with the same receipt and charge checks. The full matrix
//         over MCP would double the spec's time and exercise no code path the HTTP matrix and the rotation leave out
//         (the MCP renderer is one function per outcome, whatever the operation).
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { chromium, expect, test, type APIRequestContext, type Browser } from "@playwright/test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { x402Client } from "@x402/core/client";
import { toClientEvmSigner } from "@x402/evm";
import { BatchSettlementEvmScheme } from "@x402/evm/batch-settlement/client";
import { registerExactEvmScheme } from "@x402/evm/exact/client";
import { wrapFetchWithPayment } from "@x402/fetch";
import { compactVerify, createRemoteJWKSet } from "jose";
import { Mppx, evm } from "mppx/client";
import { McpClient } from "mppx/mcp/client";
import { createPublicClient, createWalletClient, erc20Abi, http } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { base } from "viem/chains";
import { TEST_ENV } from "../../scripts/test/test-env";
import { callToolWithX402 } from "../../server/testing/x402-mcp-client";
import { query, stackEnv } from "../stack";

const USDC = "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913";
// anvil default account 8: a demo payer wallet no other spec pays with (a public test key).
const PAYER = "0xdbda1821b80551c9d65939329250298aa3472ba22feea921c0cf5d620ea67b97";
const payerAddress = privateKeyToAccount(PAYER).address;
const chain = () => createPublicClient({ chain: base, transport: http(stackEnv().RPC_URL) });
// x402-batch's payer: a wallet of this spec's own (the batch spec counts its payer's payments), funded from PAYER by the
// first batch call; its channel, opened by that call's deposit, pays every later one with a voucher.
const BATCH_PAYER = privateKeyToAccount(generatePrivateKey());
const usdc = (address: string = payerAddress) =>
  chain().readContract({ address: USDC, abi: erc20Abi, functionName: "balanceOf", args: [address as `0x${string}`] });
/** The wallet a rail's payment comes from. */
const payerOf = (rail: string) => (rail === "x402-batch" ? BATCH_PAYER.address : payerAddress);

type Op = { key: string; method: string; template: string; priceMicros: bigint; rails: string[]; liveOnly: boolean; request: string; refusal?: string };
type Paid = { status: number; body: Buffer; receipt: string | null; paymentId: string | null; billing: string };

/** Every data operation on every page of /openapi.json: those with an `x-example`. */
async function discover(request: APIRequestContext): Promise<Op[]> {
  const ops: Op[] = [];
  for (let url: string | null = "/openapi.json"; url;) {
    const doc = await (await request.get(url)).json();
    for (const [template, methods] of Object.entries(doc.paths as Record<string, Record<string, Record<string, any>>>))
      for (const [method, o] of Object.entries(methods)) {
        if (!o["x-example"]) continue;
        // A free operation (served without payment) has no price block: $0, no rails.
        const info = o["x-payment-info"] ?? { amountMicros: "0", protocols: [] };
        ops.push({
          key: o.operationId,
          method: method.toUpperCase(),
          template,
          priceMicros: BigInt(info.amountMicros),
          rails: info.protocols,
          // Served from a live source only: on this offline stack it refuses every call before any payment.
          liveOnly: /live-only/i.test(o["x-coverage"]?.summary ?? ""),
          ...o["x-example"],
        });
      }
    url = doc.info["x-next"] ?? null;
  }
  return ops;
}

const x402Fetch = () => {
  const c = new x402Client();
  registerExactEvmScheme(c, { signer: privateKeyToAccount(PAYER) });
  c.setSpendControls({ maxAmountPerPayment: "$20" });
  return wrapFetchWithPayment(fetch, c);
};
let batchFetch: typeof fetch | undefined;
/** The official batch-settlement client (@x402/fetch over @x402/evm's BatchSettlementEvmScheme), one for the run. */
async function batchPay(): Promise<typeof fetch> {
  if (batchFetch) return batchFetch;
  const wallet = createWalletClient({ account: privateKeyToAccount(PAYER), chain: base, transport: http(stackEnv().RPC_URL) });
  const hash = await wallet.writeContract({ address: USDC, abi: erc20Abi, functionName: "transfer", args: [BATCH_PAYER.address, 20_000_000n] });
  await chain().waitForTransactionReceipt({ hash });
  // One deposit of $10 covers every operation's example (a top-up would move the payer's USDC during a refused call).
  const scheme = new BatchSettlementEvmScheme(toClientEvmSigner(BATCH_PAYER, chain() as never), { depositStrategy: () => "10000000" });
  return (batchFetch = wrapFetchWithPayment(fetch, new x402Client().register("eip155:8453", scheme)));
}
const mppMethods = () => [evm.charge({ account: privateKeyToAccount(PAYER), currencies: [evm.assets.base.USDC] })];

async function paidOf(res: Response): Promise<Paid> {
  return {
    status: res.status,
    body: Buffer.from(await res.arrayBuffer()),
    receipt: res.headers.get("svc-receipt"),
    paymentId: res.headers.get("svc-payment-id"),
    billing: res.headers.get("svc-billing") ?? "",
  };
}

/** An agent credential holding plan credit, bought with x402 as an agent buys it. */
async function creditedBearer(baseURL: string): Promise<string> {
  const post = (path: string, body: BodyInit, type: string) => fetch(`${baseURL}${path}`, { method: "POST", headers: { "content-type": type }, body });
  const reg = await (await post("/agent/identity", JSON.stringify({ type: "anonymous" }), "application/json")).json();
  const grant = new URLSearchParams({ grant_type: "urn:ietf:params:oauth:grant-type:jwt-bearer", assertion: reg.identity.assertion });
  const token = (await (await post("/oauth2/token", grant, "application/x-www-form-urlencoded")).json()).access_token as string;
  const plans = (await (await fetch(`${baseURL}/manifest.json`)).json()).plans as { slug: string; purchase: { url: string } }[];
  const res = await x402Fetch()(plans.find((p) => p.slug === "research-credits")!.purchase.url, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
    body: JSON.stringify({ amountUsd: "5.00" }),
  });
  expect(res.status).toBe(200);
  return token;
}

let browser: Browser | undefined;
test.afterAll(() => browser?.close());

/** A hosted card checkout: the agent opens it from the 402, a person pays it on the page, the agent retries. */
async function payByCard(baseURL: string, path: string): Promise<Paid> {
  const challenge = await (await fetch(`${baseURL}${path}`)).json();
  const opened = await (
    await fetch(challenge.card.payUrl, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ checkout: true }) })
  ).json();
  // One browser for every card payment of the run (launching it is most of a card payment's time).
  browser ??= await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: ["--disable-background-networking", "--no-first-run"],
  });
  const page = await browser.newPage();
  try {
    await page.goto(opened.checkout.url);
    await page.getByLabel("Card number").fill("4242 4242 4242 4242");
    await page.getByLabel("Expiry (MM / YY)").fill("12 / 34");
    await page.getByLabel("CVC").fill("123");
    await page.getByTestId("pay-button").click();
    await expect(page.getByTestId("checkout-complete")).toBeVisible();
  } finally {
    await page.close();
  }
  await expect.poll(async () => (await (await fetch(challenge.card.statusUrl)).json()).card.status).toBe("complete");
  return paidOf(await fetch(`${baseURL}${path}`, { headers: { "svc-payment-id": challenge.payment.id } }));
}

async function payHttp(rail: string, baseURL: string, op: Op, path: string, bearer: string): Promise<Paid> {
  const url = `${baseURL}${path}`;
  if (rail === "x402") return paidOf(await x402Fetch()(url, { method: op.method }));
  if (rail === "x402-batch") return paidOf(await (await batchPay())(url, { method: op.method }));
  if (rail === "mpp") return paidOf(await Mppx.create({ methods: mppMethods(), polyfill: false }).fetch(url, { method: op.method }));
  if (rail === "credits") return paidOf(await fetch(url, { method: op.method, headers: { authorization: `Bearer ${bearer}` } }));
  if (rail === "card") return payByCard(baseURL, path);
  throw new Error(`no client in this spec pays on rail ${rail}: add one`);
}

/** The ledger's rows for a payment, by kind (credit is captured just after the answer: polled). */
const ledger = (paymentId: string) =>
  query<{ kind: string; n: number; amount: string }>(
    "select kind, count(*)::int as n, sum(amount_micros)::text as amount from ledger_entries where payment_id = $1 group by kind order by kind",
    [paymentId],
  );

let jwks: ReturnType<typeof createRemoteJWKSet>;

/** 200, a receipt that verifies over the body received and names this payment and price, and exactly one ledger row. */
async function expectPaidOnce(p: Paid, op: Op, rail: string, path: string) {
  const what = `${op.key} on ${rail}: ${p.body.toString("utf8").slice(0, 300)}`;
  expect(p.status, what).toBe(200);
  expect(p.billing, what).toMatch(new RegExp(`rail=${rail};.*status=charged`));
  const { payload } = await compactVerify(p.receipt!, jwks);
  const receipt = JSON.parse(new TextDecoder().decode(payload));
  expect(receipt, what).toMatchObject({
    payment_id: p.paymentId,
    rail,
    amount: (Number(op.priceMicros) / 1e6).toFixed(6),
    upstream_status: 200,
    body_sha256: createHash("sha256").update(p.body).digest("base64url"),
    request: { method: op.method, path: path.split("?")[0] },
  });
  // One ledger row: the charge, or for plan credit the draw on the credit bought before.
  const kind = rail === "credits" ? "draw" : "charge";
  await expect.poll(() => ledger(p.paymentId!), what).toEqual([{ kind, n: 1, amount: String(op.priceMicros) }]);
}

/** A live-only operation offline: 403 live_only before any payment (no challenge, no payment id), on a retry with credit too. */
async function expectRefusedBeforePayment(url: string, op: Op) {
  for (const headers of [{}, { authorization: `Bearer ${bearer}` }] as Record<string, string>[]) {
    const res = await fetch(url, { method: op.method, headers });
    const body = await res.json();
    expect([res.status, body.error, body.reason], op.key).toEqual([403, "not_included", "live_only"]);
    expect(res.headers.get("payment-required"), op.key).toBeNull();
    expect(res.headers.get("svc-payment-id"), op.key).toBeNull();
  }
}

let ops: Op[] = [];
let bearer = "";

test.beforeAll(async ({ request, baseURL }) => {
  test.setTimeout(120_000);
  // The archive operations' examples read a captured day: capture today's, as the app's daily scheduler would.
  const capture = spawn(process.execPath, ["node_modules/tsx/dist/cli.mjs", "--conditions=react-server", "scripts/archive-capture.ts"], {
    env: { ...process.env, ...TEST_ENV, ...stackEnv() },
    stdio: "ignore",
  });
  const [code] = await Promise.all([new Promise((r) => capture.on("exit", r)), (async () => (ops = await discover(request)))()]);
  expect(code).toBe(0);
  jwks = createRemoteJWKSet(new URL(`${baseURL}/oauth2/jwks.json`));
  bearer = await creditedBearer(baseURL!);
});

test("discovery lists every data operation with an example call and its price", async () => {
  const keys = ops.map((o) => o.key);
  for (const k of ["aggregates", "archive_day", "avg_interest_rates", "backtest", "basis", "economy_series", "economy_series_list"]) expect(keys).toContain(k);
  for (const op of ops) expect(op.rails.length > 0 || op.priceMicros === 0n, op.key).toBe(true);
});

test("over HTTP: each operation's example paid on every rail that sells it, 200 with a verifying receipt, charged once", async ({ baseURL }) => {
  test.setTimeout(120_000);
  for (const op of ops) {
    if (op.priceMicros === 0n) {
      const res = await fetch(`${baseURL}${op.request}`, { method: op.method });
      expect(res.status, op.key).toBe(200);
      expect(res.headers.get("svc-billing"), op.key).toContain("status=free");
      expect(res.headers.get("svc-payment-id")).toBeNull();
      continue;
    }
    if (op.liveOnly) {
      await expectRefusedBeforePayment(`${baseURL}${op.request}`, op);
      continue;
    }
    for (const rail of op.rails) await expectPaidOnce(await payHttp(rail, baseURL!, op, op.request, bearer), op, rail, op.request);
  }
});

test("over HTTP: a call the offline data refuses is refused on every wallet and credit rail, and nothing is charged", async ({ baseURL }) => {
  const refusing = ops.filter((o) => o.refusal);
  expect(refusing.map((o) => o.key)).toContain("economy_series");
  for (const op of refusing)
    for (const rail of op.rails.filter((r) => r !== "card")) {
      const before = await usdc(payerOf(rail));
      const p = await payHttp(rail, baseURL!, op, op.refusal!, bearer);
      const what = `${op.key} refused on ${rail}: ${p.body.toString("utf8").slice(0, 300)}`;
      expect([403, 404], what).toContain(p.status);
      expect(p.receipt, what).toBeNull();
      expect(p.billing, what).toMatch(/status=released; charged_usd=0\.000000/);
      expect(await ledger(p.paymentId!), what).toEqual([]);
      const [payment] = await query<{ status: string }>("select status from payments where id = $1", [p.paymentId]);
      expect(payment!.status, what).toBe("released");
      expect(await usdc(payerOf(rail)), what).toBe(before);
    }
});

test("over MCP: each operation's example paid once, the rails rotated, with a verifying receipt, charged once", async ({ baseURL }) => {
  test.setTimeout(60_000);
  const connect = async (headers: Record<string, string> = {}) => {
    const c = new Client({ name: "operations-paid", version: "1.0.0" });
    await c.connect(new StreamableHTTPClientTransport(new URL(`${baseURL}/mcp`), { requestInit: { headers } }));
    return c;
  };
  const [plain, mpp, credits] = [await connect(), await connect(), await connect({ authorization: `Bearer ${bearer}` })];
  McpClient.wrap(mpp, { methods: mppMethods() });
  const MCP_RAILS = ["x402", "mpp", "credits"];
  let turn = 0;
  try {
    for (const op of ops) {
      const url = new URL(op.request, baseURL);
      const tool = (await plain.listTools()).tools.find((t) => t.name === op.key)!;
      // The tool's arguments are the example's path and query parameters, by name.
      const args = Object.fromEntries(
        Object.keys(tool.inputSchema.properties ?? {}).flatMap((name) => {
          const v = url.searchParams.get(name) ?? pathParam(op.template, url, name);
          return v === null ? [] : [[name, v]];
        }),
      );
      const params = { name: op.key, arguments: args };
      if (op.priceMicros === 0n) {
        const r = (await plain.callTool(params)) as CallToolResult;
        expect(r.isError, op.key).toBeFalsy();
        expect(r._meta?.["svc-billing"], op.key).toMatchObject({ status: "free" });
        continue;
      }
      if (op.liveOnly) {
        const r = (await plain.callTool(params)) as CallToolResult;
        expect([r.isError, r._meta?.["svc-payment-id"]], `${op.key} over MCP`).toEqual([true, undefined]);
        continue;
      }
      const rails = op.rails.filter((r) => MCP_RAILS.includes(r));
      const rail = rails[turn++ % rails.length]!;
      const r = (
        rail === "x402" ? await callToolWithX402(plain, params, PAYER) : rail === "mpp" ? await mpp.callTool(params) : await credits.callTool(params)
      ) as CallToolResult;
      const text = r.content[0]?.type === "text" ? r.content[0].text : "";
      const meta = r._meta ?? {};
      const billing = meta["svc-billing"] as Record<string, string> | undefined;
      expect(r.isError, `${op.key} over MCP on ${rail}: ${text.slice(0, 300)}`).toBeFalsy();
      expect(billing).toMatchObject({ rail, status: "charged" });
      await expectPaidOnce(
        {
          status: Number(meta["svc-http-status"]),
          body: Buffer.from(text, "utf8"),
          receipt: meta["svc-receipt"] as string,
          paymentId: String(meta["svc-payment-id"]),
          billing: `rail=${rail}; status=charged`,
        },
        op,
        rail,
        url.pathname,
      );
    }
  } finally {
    await Promise.all([plain.close(), mpp.close(), credits.close()]);
  }
});

/** A path parameter's value in an example call: the segment at the template's `{name}`. */
function pathParam(template: string, url: URL, name: string): string | null {
  const i = template.split("/").indexOf(`{${name}}`);
  return i < 0 ? null : decodeURIComponent(url.pathname.split("/")[i]!);
}
