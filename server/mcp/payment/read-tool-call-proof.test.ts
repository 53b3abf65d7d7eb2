// A tool call's `_meta` proof becomes the headers the rails registry reads over HTTP: the same rail gets the same
// proof, and a `_meta` value that is not its binding's object is a refusal in that binding's terms.
import { Challenge, Credential } from "mppx";
import { describe, expect, it } from "vitest";
import { USDC_ADDRESS } from "../../chain/config";
import { readPaymentProof } from "../../payments/rails";
import { readToolCallProof } from "./read-tool-call-proof";

const PAY_TO = "0xBcd4042DE499D14e55001CcbB24a551F3b954096";
const FROM = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const SIG = `0x${"1b".repeat(65)}`;
const NONCE = `0x${"ab".repeat(32)}`;

const challenge = Challenge.from({
  id: "challenge-id-1",
  realm: "store.test",
  method: "evm",
  intent: "charge",
  request: { amount: "20000", currency: USDC_ADDRESS, recipient: PAY_TO, methodDetails: { chainId: 8453, decimals: 6, credentialTypes: ["authorization"] } },
  expires: new Date(Date.now() + 300_000).toISOString(),
  meta: { payment_id: "pay_0000000000000000", binding: "b".repeat(64) },
});
// As mppx's McpClient sends it: the credential object (Credential.deserialize of the header its method made).
const mppCredential = JSON.parse(
  JSON.stringify(
    Credential.deserialize(
      Credential.serialize({
        challenge,
        payload: { type: "authorization", from: FROM, to: PAY_TO, value: "20000", validAfter: "0", validBefore: "9999999999", nonce: NONCE, signature: SIG },
        source: `did:pkh:eip155:8453:${FROM}`,
      }),
    ),
  ),
);
const x402Payload = {
  x402Version: 2,
  resource: { url: "http://store.test/api/v1/aggregates/AAPL", mimeType: "application/json" },
  accepted: { scheme: "exact", network: "eip155:8453", asset: USDC_ADDRESS, amount: "20000", payTo: PAY_TO, maxTimeoutSeconds: 300, extra: {} },
  payload: { signature: SIG, authorization: { from: FROM, to: PAY_TO, value: "20000", validAfter: "0", validBefore: "9999999999", nonce: NONCE } },
};
const bearer = new Headers({ authorization: "Bearer abc.def.ghi" });

function read(meta: unknown, http = new Headers()) {
  const r = readToolCallProof(meta, http);
  if (r.type !== "read") throw new Error(`expected a proof, got ${r.error.code}: ${r.error.detail}`);
  return r;
}

describe("readToolCallProof", () => {
  it("turns an MPP credential into Authorization: Payment, read by the MPP rail as over HTTP; the bearer moves to SVC-Agent-Authorization", () => {
    const r = read({ "org.paymentauth/credential": mppCredential }, bearer);
    expect(r.binding).toBe("mpp");
    const header = r.headers.get("authorization")!;
    expect(header).toMatch(/^Payment /);
    expect(Credential.deserialize(header)).toMatchObject({ challenge: { id: "challenge-id-1", method: "evm" }, payload: { nonce: NONCE } });
    expect(r.headers.get("svc-agent-authorization")).toBe("Bearer abc.def.ghi");
    const found = readPaymentProof(r.headers);
    expect(found.type).toBe("proof");
    expect(found.type === "proof" && found.rail.name).toBe("mpp");
  });

  it("turns an x402 payment payload into PAYMENT-SIGNATURE (base64 JSON), read by the x402 rail; the bearer stays in Authorization", () => {
    const r = read({ "x402/payment": x402Payload }, bearer);
    expect(r.binding).toBe("x402");
    expect(JSON.parse(Buffer.from(r.headers.get("payment-signature")!, "base64").toString("utf8"))).toEqual(x402Payload);
    expect(r.headers.get("authorization")).toBe("Bearer abc.def.ghi");
    const found = readPaymentProof(r.headers);
    expect(found.type === "proof" && found.rail.name).toBe("x402");
  });

  it("passes the plan bearer (Authorization or SVC-Agent-Authorization) and a paid checkout's id, and nothing else of the HTTP request", () => {
    const http = new Headers({ authorization: "Bearer abc.def.ghi", cookie: "a=b", "x-payment": "zzz", "svc-payment-id": "pay_1111111111111111" });
    const r = read(undefined, http);
    expect(r.binding).toBe("bearer");
    expect([...r.headers.keys()]).toEqual(["authorization"]);
    const found = readPaymentProof(r.headers);
    expect(found.type === "proof" && found.rail.name).toBe("credits");

    expect(read({}, new Headers({ "svc-agent-authorization": "Bearer abc.def.ghi" })).headers.get("svc-agent-authorization")).toBe("Bearer abc.def.ghi");
    const checkout = read({ "svc-payment-id": "pay_1111111111111111" });
    expect(checkout.binding).toBe("checkout");
    expect(checkout.headers.get("svc-payment-id")).toBe("pay_1111111111111111");
    expect(read({ other: 1 }).binding).toBe("none");
    expect([...read(undefined).headers.keys()]).toEqual([]);
  });

  it("leaves two bindings' proofs to the registry, which refuses them as over HTTP", () => {
    const r = read({ "x402/payment": x402Payload, "org.paymentauth/credential": mppCredential });
    expect(() => readPaymentProof(r.headers)).toThrow(expect.objectContaining({ code: "invalid_request", reason: "multiple_payment_proofs" }));
  });

  it("refuses a _meta value that is not its binding's object, naming the key", () => {
    for (const bad of [
      "Payment abc",
      1,
      null,
      [],
      { challenge: "x", payload: {} },
      { payload: {} },
      { challenge: { id: "x" } },
      { challenge: { id: "x", request: 5 }, payload: {} },
    ]) {
      const r = readToolCallProof({ "org.paymentauth/credential": bad }, new Headers());
      expect(r.type, JSON.stringify(bad)).toBe("malformed");
      expect(r.type === "malformed" && r.binding).toBe("mpp");
      expect(r.type === "malformed" && r.error).toMatchObject({ code: "payment_required", reason: "malformed_credential" });
      expect(r.type === "malformed" && r.error.detail).toContain("org.paymentauth/credential");
    }
    for (const bad of ["eyJ4NDAyVmVyc2lvbiI6Mn0=", 2, null, [x402Payload]]) {
      const r = readToolCallProof({ "x402/payment": bad }, new Headers());
      expect(r.type === "malformed" && r.binding).toBe("x402");
      expect(r.type === "malformed" && r.error).toMatchObject({ code: "payment_required", reason: "malformed_payment" });
    }
    const id = readToolCallProof({ "svc-payment-id": 12 }, new Headers());
    expect(id.type === "malformed" && id.error.code).toBe("payment_unknown");
  });

  it("refuses proofs over 16 KiB, as the rails refuse such headers", () => {
    const big = { ...x402Payload, padding: "x".repeat(17 * 1024) };
    expect(readToolCallProof({ "x402/payment": big }, new Headers())).toMatchObject({ type: "malformed", binding: "x402" });
    const bigMpp = { ...mppCredential, source: "x".repeat(17 * 1024) };
    expect(readToolCallProof({ "org.paymentauth/credential": bigMpp }, new Headers())).toMatchObject({ type: "malformed", binding: "mpp" });
  });
});
