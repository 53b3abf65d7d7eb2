// FACILITATOR=remote: the gateway verifies and settles through an HTTP facilitator speaking the x402 spec
// (/verify, /settle, /supported). The facilitator here is a real one (x402Facilitator + @x402/evm exact scheme
// on the local chain) behind HTTP; an unreachable facilitator is a 503 payment_provider_unavailable.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { anvilAddress } from "../../scripts/lib/local-chain";
import { resetEnvForTests } from "../env";
import { callGateway, officialFacilitator, payChallenge, usdcBalance, useGatewayStack, type TestChain, type GatewaySeller } from "../testing/gateway";
import { getFacilitator, setFacilitatorForTests } from "./eip3009/facilitator";

const SECRET = "fake-upstream-secret-0123456789";
const AAPL = "/api/v1/aggregates/AAPL?from=2024-04-01&to=2024-04-30";
let chain: TestChain;
let seller: GatewaySeller;
let facilitatorServer: http.Server;
let facilitatorUrl: string;
const seen: string[] = [];

useGatewayStack(SECRET, (s) => ({ chain, seller } = s));

beforeAll(async () => {
  const official = officialFacilitator(chain.rpcUrl);
  facilitatorServer = http.createServer(async (req, res) => {
    seen.push(`${req.method} ${req.url}`);
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString()) : {};
    const send = (status: number, v: unknown) => res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(v));
    if (req.url === "/supported") return send(200, official.getSupported());
    if (req.url === "/verify") return send(200, await official.verify(body.paymentPayload, body.paymentRequirements));
    if (req.url === "/settle") return send(200, await official.settle(body.paymentPayload, body.paymentRequirements));
    send(404, {});
  });
  await new Promise<void>((r) => facilitatorServer.listen(0, "127.0.0.1", () => r()));
  facilitatorUrl = `http://127.0.0.1:${(facilitatorServer.address() as AddressInfo).port}`;
}, 60_000);

afterAll(async () => {
  delete process.env.FACILITATOR_URL;
  process.env.FACILITATOR = "local";
  resetEnvForTests();
  setFacilitatorForTests(undefined);
  await new Promise<void>((r) => facilitatorServer?.close(() => r()));
});

function useRemote(url: string) {
  process.env.FACILITATOR = "remote";
  process.env.FACILITATOR_URL = url;
  resetEnvForTests();
  setFacilitatorForTests(undefined);
}

async function paidCall(payerIndex: number): Promise<Response> {
  return callGateway(seller.host, AAPL, { headers: await payChallenge(await callGateway(seller.host, AAPL), payerIndex) });
}

describe("remote facilitator", () => {
  it("verifies and settles over HTTP; the USDC moves", async () => {
    useRemote(facilitatorUrl);
    expect(getFacilitator().kind).toBe("remote");
    expect((await getFacilitator().supported()).kinds.some((k) => k.network === "eip155:8453" && k.scheme === "exact")).toBe(true);
    const payer = anvilAddress(6);
    const balance = () => usdcBalance(chain.rpcUrl, payer);
    const before = await balance();
    const res = await paidCall(6);
    expect(res.status).toBe(200);
    expect(seen).toEqual(expect.arrayContaining(["POST /verify", "POST /settle"]));
    expect(await balance()).toBe(before - 20_000n);
  });

  it("an unreachable facilitator is 503 payment_provider_unavailable, and nothing is locked", async () => {
    useRemote("http://127.0.0.1:9");
    const res = await paidCall(6);
    expect(res.status).toBe(503);
    expect((await res.json()).error).toBe("payment_provider_unavailable");
  });
});
