// Paid calls against the built app over HTTP with the official MPP client (mppx, `evm` charge) and demo wallets;
// the USDC moves on the local chain. The official x402 client still pays the same route unchanged (x402.spec.ts).
import fs from "node:fs";
import { expect, test } from "@playwright/test";
import { Challenge, Receipt } from "mppx";
import { Mppx, evm } from "mppx/client";
import { createPublicClient, erc20Abi, http, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { base } from "viem/chains";

const USDC = "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913";
const PAY_TO = "0xBcd4042DE499D14e55001CcbB24a551F3b954096";
// anvil default accounts 4-5 (demo payer wallets; public test keys).
const PAYERS: Hex[] = [
  "0x47e179ec197488593b187f80a00eb0da91f1b9d0b13f8733639f19c30a34926a",
  "0x8b3a350cf5c34c9194ca85829a2df0ec3153be0318b5e2d3348e872092edffba",
];

function rpcUrl(): string {
  const file = process.env.E2E_STACK_FILE;
  if (file && fs.existsSync(file)) return JSON.parse(fs.readFileSync(file, "utf8")).RPC_URL;
  return `http://127.0.0.1:${process.env.LOCAL_CHAIN_PORT ?? 8545}`;
}

const chain = createPublicClient({ chain: base, transport: http(rpcUrl()) });
const usdc = (address: Hex) => chain.readContract({ address: USDC, abi: erc20Abi, functionName: "balanceOf", args: [address] });
const mppClient = (key: Hex) =>
  Mppx.create({ methods: [evm.charge({ account: privateKeyToAccount(key), currencies: [evm.assets.base.USDC] })], polyfill: false });

test("the 402 carries an MPP challenge (WWW-Authenticate: Payment, evm charge, realm = the host) beside the x402 offer", async ({ baseURL }) => {
  const res = await fetch(`${baseURL}/api/v1/aggregates/AAPL`);
  expect(res.status).toBe(402);
  expect(res.headers.get("payment-required")).toBeTruthy();
  const [c] = Challenge.fromResponseList(res);
  expect(c).toMatchObject({ method: "evm", intent: "charge", realm: new URL(baseURL!).hostname });
  expect(c!.request).toMatchObject({ amount: "20000", currency: USDC, recipient: PAY_TO });
  expect(Date.parse(c!.expires!)).toBeGreaterThan(Date.now());
});

test("the official mppx client pays for aggregates, gets the data with a Payment-Receipt, and the USDC moves on chain", async ({ baseURL }) => {
  const payer = privateKeyToAccount(PAYERS[0]!).address;
  const [payerBefore, sellerBefore] = [await usdc(payer), await usdc(PAY_TO)];
  const res = await mppClient(PAYERS[0]!).fetch(`${baseURL}/api/v1/aggregates/AAPL?from=2017-02-01&to=2017-02-28`);
  expect(res.status).toBe(200);
  const body = await res.json();
  expect(body.ticker).toBe("AAPL");
  expect(body.data.bars.length).toBeGreaterThan(0);
  const receipt = Receipt.fromResponse(res);
  expect(receipt).toMatchObject({ status: "success", method: "evm" });
  expect(res.headers.get("svc-billing")).toMatch(/rail=mpp;.*status=charged/);
  expect(await usdc(payer)).toBe(payerBefore - 20_000n);
  expect(await usdc(PAY_TO)).toBe(sellerBefore + 20_000n);
  const tx = await chain.getTransactionReceipt({ hash: receipt.reference as Hex });
  expect(tx.status).toBe("success");
  // The payment's status names the rail.
  const status = await (await fetch(`${baseURL}/payments/${res.headers.get("svc-payment-id")}`)).json();
  expect(status).toMatchObject({ status: "consumed", rail: "mpp", complete: true, transaction: receipt.reference });
});

// Issue 23 changed this rule (resumable delivery): the replay was refused `payment_consumed` as problem details.
test("a replayed MPP credential is served again (replay=true, the same payment) and charged once", async ({ baseURL }) => {
  const payer = privateKeyToAccount(PAYERS[1]!).address;
  const before = await usdc(payer);
  const url = `${baseURL}/api/v1/avg-interest-rates`;
  const prepared = await mppClient(PAYERS[1]!).preparePayment(await fetch(url));
  const authorization = await prepared.createCredential();
  const first = await fetch(url, { headers: { authorization } });
  expect(first.status).toBe(200);
  const replay = await fetch(url, { headers: { authorization } });
  expect(replay.status).toBe(200);
  expect((await replay.json()).source).toBe("us_treasury");
  expect(replay.headers.get("svc-payment-id")).toBe(first.headers.get("svc-payment-id"));
  expect(replay.headers.get("svc-billing")).toMatch(/rail=mpp;.*status=charged; replay=true/);
  expect(Receipt.fromResponse(replay).reference).toBe(Receipt.fromResponse(first).reference);
  expect(await usdc(payer)).toBe(before - 10_000n);
});
