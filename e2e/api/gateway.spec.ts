// Gateway behaviour over HTTP against the built app: matching, refusals, proof binding and concurrency.
import { expect, test } from "@playwright/test";
import { x402Client, x402HTTPClient } from "@x402/core/client";
import { registerExactEvmScheme } from "@x402/evm/exact/client";
import type { Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";

const PAYER: Hex = "0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6"; // anvil account 3

async function proofFor(baseURL: string, path: string): Promise<Record<string, string>> {
  const res = await fetch(`${baseURL}${path}`);
  expect(res.status).toBe(402);
  const c = new x402Client();
  registerExactEvmScheme(c, { signer: privateKeyToAccount(PAYER) });
  const h = new x402HTTPClient(c);
  return h.encodePaymentSignatureHeader(await h.createPaymentPayload(h.getPaymentRequiredResponse((n) => res.headers.get(n), await res.json())));
}

test("unknown paths are JSON 404 not_found, wrong methods JSON 405, bad parameters 400 before any charge", async ({ request }) => {
  const missing = await request.get("/api/v1/does-not-exist");
  expect(missing.status()).toBe(404);
  expect((await missing.json()).error).toBe("not_found");
  const wrong = await request.delete("/api/v1/aggregates/AAPL");
  expect(wrong.status()).toBe(405);
  expect((await wrong.json()).error).toBe("method_not_allowed");
  const bad = await request.get("/api/v1/aggregates/AAPL?multiplier=50001");
  expect(bad.status()).toBe(400);
  expect(await bad.json()).toMatchObject({ error: "invalid_request", parameter: "multiplier" });
});

test("the backtest 402 carries a card block; statusUrl answers; payUrl opens a hosted checkout for {checkout: true}", async ({ request, baseURL }) => {
  const res = await request.get("/api/v1/backtest/AAPL");
  expect(res.status()).toBe(402);
  const { payment, card } = await res.json();
  expect(payment.amount).toBe("0.500000");
  const status = await request.get(card.statusUrl);
  expect(await status.json()).toMatchObject({ id: payment.id, status: "challenged", complete: false, card: { status: "incomplete" } });
  const bare = await request.post(card.payUrl);
  expect(bare.status()).toBe(400);
  const pay = await request.post(card.payUrl, { data: { checkout: true } });
  expect(pay.status()).toBe(200);
  expect(await pay.json()).toMatchObject({
    payment: { id: payment.id, status: "incomplete" },
    checkout: { url: `${baseURL}/checkout/${payment.id}`, processor: "test" },
  });
});

// Issue 33 changed what the copies get (it was one 200 and 49 409s): copies of a proof in flight wait for the first and
// are served the answer it paid for, kept, never the upstream again; still one charge.
test("fifty concurrent requests with the same proof are charged once, each served the one answer it paid for; a proof for another request is refused", async ({
  baseURL,
  request,
}) => {
  const path = "/api/v1/aggregates/AAPL?from=2017-02-01&to=2017-02-28";
  const proof = await proofFor(baseURL!, path);
  const answers = await Promise.all(Array.from({ length: 50 }, () => request.get(path, { headers: proof })));
  expect(answers.map((a) => a.status())).toEqual(Array.from({ length: 50 }, () => 200));
  const charged = answers.filter((a) => !/replay=true/.test(a.headers()["svc-billing"] ?? ""));
  expect(charged).toHaveLength(1);
  expect(charged[0]!.headers()["svc-billing"]).toMatch(/status=charged/);
  expect(new Set(await Promise.all(answers.map((a) => a.text()))).size).toBe(1);
  expect(new Set(answers.map((a) => a.headers()["svc-payment-id"])).size).toBe(1);
  const other = await request.get("/api/v1/aggregates/AAPL?from=2017-03-01&to=2017-03-31", { headers: await proofFor(baseURL!, path) });
  expect(other.status()).toBe(409);
  expect((await other.json()).error).toBe("payment_request_mismatch");
});
