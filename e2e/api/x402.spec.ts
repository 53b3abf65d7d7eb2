// Paid calls against the built app over HTTP with the official x402 client (@x402/fetch) and demo wallets;
// the USDC moves on the local chain (anvil as Base, started by the e2e server's stack).
import fs from "node:fs";
import { expect, test } from "@playwright/test";
import { x402Client, x402HTTPClient } from "@x402/core/client";
import { decodePaymentRequiredHeader, decodePaymentResponseHeader } from "@x402/core/http";
import { registerExactEvmScheme } from "@x402/evm/exact/client";
import { wrapFetchWithPayment } from "@x402/fetch";
import { createPublicClient, erc20Abi, http, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { base } from "viem/chains";

const USDC = "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913";
const PAY_TO = "0xBcd4042DE499D14e55001CcbB24a551F3b954096";
// anvil default accounts 1-3 (demo payer wallets; public test keys).
const PAYERS: Hex[] = [
  "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d",
  "0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a",
  "0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6",
];

/**
 * The e2e stack's chain: E2E_STACK_FILE (the e2e server's stack.json), else E2E_RPC_URL, else LOCAL_CHAIN_PORT
 * (pins the port the stack's anvil listens on), else anvil's default port. A wrong chain fails loudly below
 * (the settlement transaction would not be found), never passes silently.
 */
function rpcUrl(): string {
  const file = process.env.E2E_STACK_FILE;
  if (file && fs.existsSync(file)) return JSON.parse(fs.readFileSync(file, "utf8")).RPC_URL;
  if (process.env.E2E_RPC_URL) return process.env.E2E_RPC_URL;
  return `http://127.0.0.1:${process.env.LOCAL_CHAIN_PORT ?? 8545}`;
}

const chain = createPublicClient({ chain: base, transport: http(rpcUrl()) });
const usdc = (address: Hex) => chain.readContract({ address: USDC, abi: erc20Abi, functionName: "balanceOf", args: [address] });

function client(key: Hex) {
  const c = new x402Client();
  registerExactEvmScheme(c, { signer: privateKeyToAccount(key) });
  return c;
}

test("the official @x402/fetch client pays for aggregates, gets the data, and the USDC moves on chain", async ({ baseURL }) => {
  const payer = privateKeyToAccount(PAYERS[0]!).address;
  const [payerBefore, sellerBefore] = [await usdc(payer), await usdc(PAY_TO)];
  const res = await wrapFetchWithPayment(fetch, client(PAYERS[0]!))(`${baseURL}/api/v1/aggregates/AAPL?from=2017-01-03&to=2017-01-31`);
  expect(res.status).toBe(200);
  const body = await res.json();
  expect(body.ticker).toBe("AAPL");
  expect(body.data.bars.length).toBeGreaterThan(0);
  const receipt = decodePaymentResponseHeader(res.headers.get("payment-response")!);
  expect(receipt.success).toBe(true);
  expect(receipt.network).toBe("eip155:8453");
  expect(res.headers.get("svc-billing")).toContain("amount_usd=0.020000");
  expect(await usdc(payer)).toBe(payerBefore - 20_000n);
  expect(await usdc(PAY_TO)).toBe(sellerBefore + 20_000n);
  const tx = await chain.getTransactionReceipt({ hash: receipt.transaction as Hex });
  expect(tx.status).toBe("success");
});

test("a v1-style client (402 body, X-PAYMENT header) pays too, and its proof cannot be replayed", async ({ baseURL, request }) => {
  const url = `${baseURL}/api/v1/avg-interest-rates`;
  const first = await fetch(url);
  expect(first.status).toBe(402);
  const body = await first.json();
  expect(body.x402Version).toBe(1);
  const httpClient = new x402HTTPClient(client(PAYERS[1]!));
  const required = httpClient.getPaymentRequiredResponse(() => null, body); // v1: the body only
  const proof = httpClient.encodePaymentSignatureHeader(await httpClient.createPaymentPayload(required));
  expect(Object.keys(proof)).toEqual(["X-PAYMENT"]);
  const paid = await request.get(url, { headers: proof });
  expect(paid.status()).toBe(200);
  expect((await paid.json()).source).toBe("us_treasury");
  const replay = await request.get(url, { headers: proof });
  expect(replay.status()).toBe(409);
  expect((await replay.json()).error).toBe("payment_consumed");
});

test("the 402 carries the offer in the body and the PAYMENT-REQUIRED header, exposed to browsers", async ({ request }) => {
  const res = await request.get("/api/v1/aggregates/AAPL", { headers: { "accept-encoding": "gzip, deflate, br" } });
  expect(res.status()).toBe(402);
  // Not compressed, though the client takes gzip and the server compresses (the next test): a 402 is cheap to send.
  expect(res.headers()["cache-control"]).toBe("no-store, no-transform");
  expect(res.headers()["content-encoding"]).toBeUndefined();
  expect(res.headers()["access-control-expose-headers"]).toContain("PAYMENT-REQUIRED");
  const body = await res.json();
  expect(body.payment).toMatchObject({ amount: "0.020000", currency: "USD", operation: "aggregates" });
  const v2 = decodePaymentRequiredHeader(res.headers()["payment-required"]!);
  expect(v2.accepts[0]).toMatchObject({
    scheme: "exact",
    network: "eip155:8453",
    asset: USDC,
    amount: "20000",
    payTo: PAY_TO,
    extra: { name: "USD Coin", version: "2" },
  });
});
