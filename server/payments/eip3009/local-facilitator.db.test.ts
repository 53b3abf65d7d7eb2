// Our lean local facilitator against the reference, @x402/evm's exact facilitator, on a real anvil chain: for every
// kind of payload (valid, forged, wrong amount or recipient, expired, unfunded, already used) both must agree on
// whether it is valid; and a settlement moves the USDC once, the second attempt being refused by the contract.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { x402Client } from "@x402/core/client";
import type { PaymentPayload, PaymentRequirements } from "@x402/core/types";
import { registerExactEvmScheme } from "@x402/evm/exact/client";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { anvilAddress, anvilPrivateKey } from "../../../scripts/lib/local-chain";
import { officialFacilitator, startChainForTests, usdcBalance, type TestChain } from "../../testing/gateway";
import { exactRequirements } from "./authorization";
import { LocalFacilitator } from "./local-facilitator";

let chain: TestChain;
let ours: LocalFacilitator;
let reference: ReturnType<typeof officialFacilitator>;
const PAY_TO = anvilAddress(10);

beforeAll(async () => {
  chain = await startChainForTests();
  ours = new LocalFacilitator(chain.rpcUrl, anvilPrivateKey(0));
  reference = officialFacilitator(chain.rpcUrl);
}, 60_000);

afterAll(async () => {
  await chain?.stop();
});

async function sign(key: `0x${string}`, requirements: PaymentRequirements): Promise<PaymentPayload> {
  const client = new x402Client();
  registerExactEvmScheme(client, { signer: privateKeyToAccount(key) });
  return client.createPaymentPayload({
    x402Version: 2,
    resource: { url: "http://test/x", description: "", mimeType: "application/json" },
    accepts: [requirements],
  });
}

const req = (amount = 20_000n, payTo: string = PAY_TO, maxTimeoutSeconds?: number): PaymentRequirements => ({
  ...exactRequirements({ amountMicros: amount, payTo }),
  ...(maxTimeoutSeconds ? { maxTimeoutSeconds } : {}),
});

describe("the local facilitator agrees with @x402/evm's exact facilitator", () => {
  it("on valid, forged, mismatched, expired and unfunded payloads", async () => {
    const valid = await sign(anvilPrivateKey(1), req());
    const forged = structuredClone(valid);
    (forged.payload as { authorization: { from: string } }).authorization.from = anvilAddress(2);
    const shortLived = await sign(anvilPrivateKey(1), req(20_000n, PAY_TO, 3));
    const unfunded = await sign(generatePrivateKey(), req());
    const cases: [string, PaymentPayload, PaymentRequirements, boolean][] = [
      ["valid", valid, req(), true],
      ["forged from", forged, req(), false],
      ["another amount", valid, req(30_000n), false],
      ["another recipient", valid, req(20_000n, anvilAddress(9)), false],
      ["expiring within seconds", shortLived, req(20_000n, PAY_TO, 3), false],
      ["unfunded payer", unfunded, req(), false],
    ];
    for (const [name, payload, requirements, expected] of cases) {
      const [a, b] = [await ours.verify(payload, requirements), await reference.verify(payload, requirements)];
      expect(a.type === "valid", `ours, ${name}: ${JSON.stringify(a)}`).toBe(expected);
      expect(b.isValid, `reference, ${name}: ${JSON.stringify(b)}`).toBe(expected);
    }
    expect(await ours.verify(unfunded, req())).toMatchObject({ type: "invalid", reason: "insufficient_funds" });
    expect(await ours.verify(forged, req())).toMatchObject({ type: "invalid", reason: "invalid_signature" });
  });

  it("settles once: the USDC moves, and the spent authorization is refused by both afterwards", async () => {
    const payer = anvilAddress(3);
    const [before, sellerBefore] = [await usdcBalance(chain.rpcUrl, payer), await usdcBalance(chain.rpcUrl, PAY_TO)];
    const payload = await sign(anvilPrivateKey(3), req());
    const settled = await ours.settle(payload, req());
    expect(settled).toMatchObject({ type: "settled", payer });
    expect(await usdcBalance(chain.rpcUrl, payer)).toBe(before - 20_000n);
    expect(await usdcBalance(chain.rpcUrl, PAY_TO)).toBe(sellerBefore + 20_000n);
    expect(await ours.verify(payload, req())).toMatchObject({ type: "invalid", reason: "authorization_used" });
    expect((await reference.verify(payload, req())).isValid).toBe(false);
    expect(await ours.settle(payload, req())).toMatchObject({ type: "failed", reason: "authorization_used" });
    expect(await usdcBalance(chain.rpcUrl, payer)).toBe(before - 20_000n);
  });

  it("settles through an RPC without eth_sendRawTransactionSync too (send, then wait for the receipt)", async () => {
    // A JSON-RPC proxy in front of anvil that does not know EIP-7966, as many providers do not.
    const methods: string[] = [];
    const proxy = http.createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const body = JSON.parse(Buffer.concat(chunks).toString());
      methods.push(body.method);
      if (body.method === "eth_sendRawTransactionSync")
        return res
          .writeHead(200, { "content-type": "application/json" })
          .end(JSON.stringify({ jsonrpc: "2.0", id: body.id, error: { code: -32601, message: "Method not found" } }));
      const upstream = await fetch(chain.rpcUrl, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
      res.writeHead(upstream.status, { "content-type": "application/json" }).end(await upstream.text());
    });
    await new Promise<void>((r) => proxy.listen(0, "127.0.0.1", () => r()));
    try {
      const viaProxy = new LocalFacilitator(`http://127.0.0.1:${(proxy.address() as AddressInfo).port}`, anvilPrivateKey(0));
      const payer = anvilAddress(5);
      const before = await usdcBalance(chain.rpcUrl, payer);
      for (let i = 0; i < 2; i++) expect(await viaProxy.settle(await sign(anvilPrivateKey(5), req()), req())).toMatchObject({ type: "settled", payer });
      expect(await usdcBalance(chain.rpcUrl, payer)).toBe(before - 40_000n);
      // Asked once, then remembered: the second settlement went straight to eth_sendRawTransaction.
      expect(methods.filter((m) => m === "eth_sendRawTransactionSync")).toHaveLength(1);
      expect(methods.filter((m) => m === "eth_sendRawTransaction")).toHaveLength(2);
    } finally {
      await new Promise<void>((r) => proxy.close(() => r()));
    }
  });

  it("a send that fails leaves no nonce gap: the next settlement reads the nonce from the chain again and lands", async () => {
    // The node drops the first send (as a network error would): that nonce was never used.
    let dropped = 0;
    const proxy = http.createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const body = JSON.parse(Buffer.concat(chunks).toString());
      // Twice: the transport retries a failed request once.
      if (body.method === "eth_sendRawTransactionSync" && dropped++ < 2) return res.writeHead(502).end("bad gateway");
      const upstream = await fetch(chain.rpcUrl, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
      res.writeHead(upstream.status, { "content-type": "application/json" }).end(await upstream.text());
    });
    await new Promise<void>((r) => proxy.listen(0, "127.0.0.1", () => r()));
    try {
      const viaProxy = new LocalFacilitator(`http://127.0.0.1:${(proxy.address() as AddressInfo).port}`, anvilPrivateKey(0));
      const payer = anvilAddress(6);
      const before = await usdcBalance(chain.rpcUrl, payer);
      const first = await sign(anvilPrivateKey(6), req());
      expect((await viaProxy.settle(first, req())).type).toBe("pending");
      expect(await viaProxy.settle(await sign(anvilPrivateKey(6), req()), req())).toMatchObject({ type: "settled" });
      // ... and the dropped one, retried later, lands too.
      expect(await viaProxy.settle(first, req())).toMatchObject({ type: "settled" });
      expect(await usdcBalance(chain.rpcUrl, payer)).toBe(before - 40_000n);
    } finally {
      await new Promise<void>((r) => proxy.close(() => r()));
    }
  });

  it("an unreachable chain is `unavailable` on verify and `pending` on settle, never a verdict", async () => {
    const offline = new LocalFacilitator("http://127.0.0.1:9", anvilPrivateKey(0));
    const payload = await sign(anvilPrivateKey(4), req());
    expect((await offline.verify(payload, req())).type).toBe("unavailable");
    expect((await offline.settle(payload, req())).type).toBe("pending");
  });
});
