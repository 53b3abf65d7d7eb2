// The free quote ($0 wallet proof) and the payment status/pay endpoints of the 402's card block.
import { x402Client, x402HTTPClient } from "@x402/core/client";
import { registerExactEvmScheme } from "@x402/evm/exact/client";
import { privateKeyToAccount } from "viem/accounts";
import { beforeAll, describe, expect, it } from "vitest";
import * as statusRoute from "../../app/payments/[id]/route";
import * as payRoute from "../../app/payments/[id]/pay/route";
import * as quoteRoute from "../../app/vendor/agent/quote/route";
import * as gatewayRoute from "../../app/api/v1/[...path]/route";
import { anvilAddress, anvilPrivateKey } from "../../scripts/lib/local-chain";
import { createGatewaySeller, type GatewaySeller } from "../testing/gateway";

let seller: GatewaySeller;

beforeAll(async () => {
  seller = await createGatewaySeller("http://127.0.0.1:9", { signingSecret: "secret-for-quote-tests-0123" });
});

function quote(headers: Record<string, string> = {}, host = seller.host) {
  return quoteRoute.POST(
    new Request(`http://${host}/vendor/agent/quote`, {
      method: "POST",
      headers: { host, "content-type": "application/json", ...headers },
      body: JSON.stringify({ goal: "daily AAPL bars for 2017" }),
    }),
    { params: Promise.resolve({}) },
  );
}

describe("POST /vendor/agent/quote", () => {
  it("answers 409 payout_address_required when the seller has no payout address to bind the proof to", async () => {
    const s = await createGatewaySeller("http://127.0.0.1:9", { payTo: null });
    const res = await quote({}, s.host);
    expect(res.status).toBe(409);
    expect((await res.json()).error).toBe("payout_address_required");
  });

  it("asks for a $0 wallet proof, then returns the guide for the signing wallet without charging", async () => {
    const first = await quote();
    expect(first.status).toBe(402);
    const body = await first.json();
    expect(body.payment.amount).toBe("0.000000");
    const client = new x402Client();
    registerExactEvmScheme(client, { signer: privateKeyToAccount(anvilPrivateKey(4)) });
    const http = new x402HTTPClient(client);
    const payload = await http.createPaymentPayload(http.getPaymentRequiredResponse((n) => first.headers.get(n), body));
    const proof = http.encodePaymentSignatureHeader(payload);
    const res = await quote(proof);
    expect(res.status).toBe(200);
    const guide = await res.json();
    expect(guide.wallet).toBe(anvilAddress(4));
    expect(guide.goal).toBe("daily AAPL bars for 2017");
    expect(Array.isArray(guide.recommendations)).toBe(true);
  });

  it("refuses a proof with a bad signature", async () => {
    const first = await quote();
    const body = await first.json();
    const client = new x402Client();
    registerExactEvmScheme(client, { signer: privateKeyToAccount(anvilPrivateKey(4)) });
    const http = new x402HTTPClient(client);
    const payload = await http.createPaymentPayload(http.getPaymentRequiredResponse((n) => first.headers.get(n), body));
    (payload.payload as { authorization: { from: string } }).authorization.from = anvilAddress(5);
    const res = await quote(http.encodePaymentSignatureHeader(payload));
    expect(res.status).toBe(402);
    expect(await res.json()).toMatchObject({ error: "identity_invalid", reason: "invalid_signature" });
  });
});

describe("payment status and card checkout", () => {
  it("statusUrl reports the payment; payUrl takes only {checkout: true} and opens a checkout; unknown ids are payment_unknown", async () => {
    const challenge = await gatewayRoute.GET(new Request(`http://${seller.host}/api/v1/backtest/AAPL`, { headers: { host: seller.host } }), {
      params: Promise.resolve({}),
    });
    const { payment, card } = await challenge.json();
    const status = await statusRoute.GET(new Request(card.statusUrl, { headers: { host: seller.host } }), { params: Promise.resolve({ id: payment.id }) });
    expect(status.status).toBe(200);
    expect(await status.json()).toMatchObject({ id: payment.id, status: "challenged", complete: false, amount: "0.500000", operation: "backtest" });
    const pay = (body?: unknown) =>
      payRoute.POST(
        new Request(card.payUrl, {
          method: "POST",
          headers: { host: seller.host, "content-type": "application/json" },
          body: body === undefined ? undefined : JSON.stringify(body),
        }),
        { params: Promise.resolve({ id: payment.id }) },
      );
    const empty = await pay();
    expect(empty.status).toBe(400);
    expect(await empty.json()).toMatchObject({ error: "invalid_request", parameter: "checkout" });
    const opened = await pay({ checkout: true });
    expect(opened.status).toBe(200);
    expect(await opened.json()).toMatchObject({
      payment: { id: payment.id, status: "incomplete" },
      checkout: { url: `http://${seller.host}/checkout/${payment.id}` },
    });
    const unknown = await statusRoute.GET(new Request(`http://${seller.host}/payments/pay_nope`, { headers: { host: seller.host } }), {
      params: Promise.resolve({ id: "pay_nope" }),
    });
    expect(unknown.status).toBe(404);
    expect((await unknown.json()).error).toBe("payment_unknown");
  });
});
