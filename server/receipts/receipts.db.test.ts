// Receipts signed over the response, in process against real PostgreSQL and a real anvil chain: a charged answer
// carries `svc-receipt`, a JWS that verifies with the storefront's published keys and whose body hash equals the
// bytes received, on each rail and on a re-delivery (the charge's own, over the kept bytes); an uncharged answer carries none; GET /payments/{id}/receipt
// returns the charge's.
import { createHash } from "node:crypto";
import { compactVerify, createLocalJWKSet, decodeProtectedHeader } from "jose";
import { describe, expect, it } from "vitest";
import * as receiptRoute from "../../app/payments/[id]/receipt/route";
import { publicJwks } from "../identity/signing-keys";
import { callGateway, payOn, useGatewayStack, type FakeUpstream, type GatewaySeller } from "../testing/gateway";

let upstream: FakeUpstream;
let seller: GatewaySeller;
const SECRET = "fake-upstream-secret-0123456789";
const AAPL = "/api/v1/aggregates/AAPL?from=2024-08-01&to=2024-08-30";

const call = (headers: Record<string, string> = {}) => callGateway(seller.host, AAPL, { headers });

/** What a payer does with a receipt: verify it with the JWKS, then recompute the body hash over the bytes it got. */
async function verify(jws: string, bytes: ArrayBuffer) {
  const { payload, protectedHeader } = await compactVerify(jws, createLocalJWKSet(await publicJwks()));
  const claims = JSON.parse(new TextDecoder().decode(payload));
  expect(protectedHeader).toMatchObject({ alg: "ES256", typ: "svc-receipt+jwt" });
  expect(claims.body_sha256).toBe(createHash("sha256").update(new Uint8Array(bytes)).digest("base64url"));
  return claims;
}

async function getReceipt(id: string) {
  const res = await receiptRoute.GET(new Request(`http://${seller.host}/payments/${id}/receipt`, { headers: { host: seller.host } }), {
    params: Promise.resolve({ id }),
  });
  return { status: res.status, body: await res.json() };
}

useGatewayStack(SECRET, (s) => ({ upstream, seller } = s));

describe.each(["x402", "mpp"] as const)("receipts, %s", (rail) => {
  it("a charged answer carries a receipt over the payment, the request and the body as received; GET /payments/{id}/receipt returns it", async () => {
    const res = await call(await payOn(rail, await call(), 1));
    expect(res.status).toBe(200);
    const jws = res.headers.get("svc-receipt")!;
    expect(jws).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    const claims = await verify(jws, await res.arrayBuffer());
    const id = res.headers.get("svc-payment-id")!;
    expect(claims).toMatchObject({
      payment_id: id,
      sub: id,
      rail,
      amount: "0.020000",
      currency: "USD",
      seller: seller.sellerId,
      request: { method: "GET", path: "/api/v1/aggregates/AAPL", query: "from=2024-08-01&to=2024-08-30" },
      upstream_status: 200,
      replay: false,
    });
    expect(claims.payer).toMatch(/^0x[0-9a-f]{40}$/);
    expect(claims.settlement).toMatch(/^0x[0-9a-f]{64}$/);
    expect(typeof claims.iat).toBe("number");
    expect(decodeProtectedHeader(jws).kid).toBe((await publicJwks()).keys[0]!.kid);
    await expect.poll(async () => (await getReceipt(id)).body.receipt).toBe(jws);
  });

  it("an uncharged answer (the upstream said 404) carries no receipt, and the payment has none", async () => {
    upstream.state.mode = { status: 404, body: { error: "unknown_ticker" } };
    const res = await call(await payOn(rail, await call(), 2));
    expect(res.status).toBe(404);
    expect(res.headers.get("svc-receipt")).toBeNull();
    const got = await getReceipt(res.headers.get("svc-payment-id")!);
    expect(got.status).toBe(404);
    expect(got.body).toMatchObject({ error: "not_found", status: "released" });
  });
});

describe("receipts on a re-delivery", () => {
  // Issue 33 changed this rule: a replay used to be the upstream's new answer with a receipt of its own saying replay ("a
  // replay's receipt says replay and hashes the bytes it sent"). Now it is the kept answer with the charge's receipt.
  it("a replay is the kept answer with the charge's own receipt, which verifies against the replayed bytes; GET /payments/{id}/receipt keeps it", async () => {
    const proof = await payOn("x402", await call(), 3);
    const first = await call(proof);
    const id = first.headers.get("svc-payment-id")!;
    const charged = first.headers.get("svc-receipt")!;
    const firstBytes = await first.arrayBuffer();
    upstream.state.mode = { status: 200, body: { changed: true } };
    const again = await call(proof);
    expect(again.status).toBe(200);
    expect(again.headers.get("svc-receipt")).toBe(charged);
    const bytes = await again.arrayBuffer();
    expect(Buffer.from(bytes).equals(Buffer.from(firstBytes))).toBe(true);
    const claims = await verify(charged, bytes);
    expect(claims).toMatchObject({ payment_id: id, replay: false, upstream_status: 200 });
    await expect.poll(async () => (await getReceipt(id)).body.receipt).toBe(charged);
    expect((await getReceipt("pay_0000000000000000")).status).toBe(404);
  });
});
