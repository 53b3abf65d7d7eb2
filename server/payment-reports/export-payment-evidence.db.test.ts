// The evidence file of a payment, from real payments (x402 and MPP against anvil, the card rail's two ways against the
// test processor, plan credit), read through the console's procedure: what it holds (the signed receipt that verifies
// with the published keys, the challenge's terms, the proof's payer, nonce and window, the settlement's block and log,
// the ledger, the audit rows of a refund, the events and their webhook deliveries), and that no secret is in it: the
// proof's signature, the challenge binding a replay needs, the raw proof headers, a shared payment token or a bearer.
import { compactVerify, createLocalJWKSet } from "jose";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "../db/client";
import { publicJwks } from "../identity/signing-keys";
import { newId } from "../lib/ids";
import { openCheckoutFor, payOnPage, retryWithPaymentId } from "../testing/card";
import { callGateway, payOn, useGatewayStack, type FakeUpstream, type GatewaySeller, type TestChain } from "../testing/gateway";
import { createCaller, sessionFor } from "../testing/trpc";
import { kit as cardKit } from "../payments/rails/card/conformance.test-kit";
import { flushCaptures } from "../payments/rails/credits/capture-queue";
import { kit as creditsKit } from "../payments/rails/credits/conformance.test-kit";

let chain: TestChain;
let upstream: FakeUpstream;
let seller: GatewaySeller;
let caller: ReturnType<typeof createCaller>;
const SECRET = "fake-upstream-secret-0123456789";
const AAPL = "/api/v1/aggregates/AAPL?from=2024-05-01&to=2024-05-31";
const BACKTEST = "/api/v1/backtest/AAPL?years=1";

useGatewayStack(SECRET, (s) => ({ chain, upstream, seller } = s));

beforeAll(async () => {
  const user = await db.sellerUser.findFirstOrThrow({ where: { sellerId: seller.sellerId } });
  caller = createCaller(sessionFor(user.id, seller.sellerId));
  // An endpoint, so the payment's events have deliveries to show.
  await db.webhookEndpoint.create({
    data: { id: newId("whe"), sellerId: seller.sellerId, url: "https://hooks.example.com/in", eventTypes: [], secretEnc: "enc:not-used-here" },
  });
}, 60_000);

/** The file as the console downloads it: the procedure's answer, serialized. */
async function evidence(id: string) {
  const file = await caller.payments.evidence({ id });
  return { file, text: JSON.stringify(file) };
}

/** Every string value of a JSON value, nested (to look for a secret in any field, under any name). */
function strings(v: unknown): string[] {
  if (typeof v === "string") return [v];
  if (v && typeof v === "object") return Object.values(v).flatMap(strings);
  return [];
}

/** No part of `secrets` appears in the file: not whole, not as a substring of a field (a JWS, a header). */
function expectNoSecret(text: string, secrets: (string | null | undefined)[]) {
  for (const s of secrets.filter((x): x is string => typeof x === "string" && x.length >= 16)) {
    expect(text.includes(s), `the evidence file contains a secret (${s.slice(0, 12)}...)`).toBe(false);
    expect(text.toLowerCase().includes(s.toLowerCase())).toBe(false);
  }
}

describe.each([
  ["x402", 3],
  ["mpp", 4],
] as const)("evidence of a %s payment", (rail, payer) => {
  it("holds the receipt (verifying with the published keys), the terms, the proof's metadata, the settlement's block and log, the ledger and the events", async () => {
    const challenge = await callGateway(seller.host, AAPL);
    const proof = await payOn(rail, challenge, payer);
    const res = await callGateway(seller.host, AAPL, { headers: proof });
    expect(res.status).toBe(200);
    const id = res.headers.get("svc-payment-id")!;
    await expect.poll(async () => (await db.payment.findUniqueOrThrow({ where: { id } })).receipt).not.toBeNull();
    const row = await db.payment.findUniqueOrThrow({ where: { id } });
    const { file, text } = await evidence(id);

    expect(file).toMatchObject({
      format: "storefront-payment-evidence/1",
      seller: seller.sellerId,
      payment: { id, status: "consumed", phase: "paid", next: "retry_same_request", rail, amount: "0.020000", payer: row.payer },
      challenge: {
        price: "0.020000",
        amount_micros: "20000",
        operation: "aggregates",
        request: { method: "GET", path: "/api/v1/aggregates/AAPL", query: "from=2024-05-01&to=2024-05-31" },
        pay_to: row.payTo,
        network: "eip155:8453",
        expires_at: row.expiresAt.toISOString(),
      },
    });
    expect(file.challenge.request_binding).toMatch(/^[\w-]{43}$/);
    // The receipt a third party checks: it verifies with the storefront's published keys, and names this payment.
    expect(file.receipt!.jws).toBe(row.receipt);
    expect(file.receipt!.jwks_uri).toMatch(/\/oauth2\/jwks\.json$/);
    const verified = await compactVerify(file.receipt!.jws, createLocalJWKSet(await publicJwks()));
    expect(JSON.parse(new TextDecoder().decode(verified.payload))).toMatchObject({ payment_id: id, settlement: row.transaction });
    expect(file.receipt!.claims).toMatchObject({ payment_id: id, rail, upstream_status: 200 });
    // The proof, as what identifies it: payer, nonce, validity window.
    const stored = row.railData as { signature: string; authorization: Record<string, string>; challengeId?: string; extra?: Record<string, unknown> };
    expect(file.proof).toMatchObject({
      rail,
      payer: row.payer,
      answered_challenge: true,
      authorization: {
        from: stored.authorization.from,
        to: stored.authorization.to,
        value: "20000",
        nonce: stored.authorization.nonce,
        valid_before: String(stored.authorization.validBefore),
        valid_after: String(stored.authorization.validAfter),
      },
    });
    // The settlement on chain: its block, and the log that moved this payment.
    expect(file.settlement.transaction).toBe(row.transaction);
    expect(file.settlement.chain).toMatchObject({ status: "mined", block_number: expect.stringMatching(/^\d+$/), log_index: expect.any(Number) });
    expect(file.settlement.outbox).toMatchObject({ status: "succeeded", attempts: 1, delivered_first: false });
    expect(file.ledger).toEqual([expect.objectContaining({ kind: "charge", amount: "0.020000", rail, payer: row.payer, units: 1 })]);
    expect(file.events.map((e) => e.type)).toEqual(["payment.settled"]);
    expect(file.events[0]!.deliveries).toEqual([expect.objectContaining({ url: "https://hooks.example.com/in", status: expect.any(String) })]);

    // No secret: not the signature, not the challenge binding a replay is checked against, not the proof as sent.
    // (x402 keeps its challenge token in `extra.challenge`, MPP its challenge id.)
    const binding = [stored.challengeId, strings(stored.extra?.challenge)[0]];
    if (rail === "x402") expect(binding[1]).toMatch(/.{16,}/);
    else expect(binding[0]).toMatch(/.{16,}/);
    expectNoSecret(text, [stored.signature, stored.signature.replace(/^0x/, ""), ...binding, ...Object.values(proof)]);
    expect(text).not.toMatch(/signature|spt_|"secret/i);
  });
});

describe("evidence of card and credit payments", () => {
  it("a checkout paid, delivered, then refunded by the seller: the processor's payment, the refund in the ledger, its audit row and events", async () => {
    const opened = await openCheckoutFor(seller.host, BACKTEST);
    await payOnPage(seller.sellerId, opened.paymentId);
    expect((await retryWithPaymentId(seller.host, BACKTEST, opened.paymentId)).status).toBe(200);
    await caller.payments.refund({ paymentId: opened.paymentId, reason: "customer dispute" });
    const { file, text } = await evidence(opened.paymentId);
    expect(file.payment).toMatchObject({ status: "refunded", phase: "refunded", next: "pay_again", rail: "card" });
    expect(file.settlement.card).toMatchObject({ flow: "checkout", brand: "visa", last4: "4242", processor_payment_id: expect.stringMatching(/^pi_/) });
    expect(file.settlement.chain).toBeNull();
    expect(file.ledger.map((l) => l.kind)).toEqual(["charge", "refund"]);
    expect(file.timeline.map((t) => t.state)).toEqual(["challenged", "incomplete", "settled", "consumed", "refunded"]);
    expect(file.audit).toEqual([expect.objectContaining({ action: expect.stringContaining("refund"), actor: expect.any(String) })]);
    expect(file.events.map((e) => e.type)).toEqual(["payment.settled", "payment.refunded"]);
    expect(file.receipt).not.toBeNull();
    expectNoSecret(text, [(await db.cardPayment.findUniqueOrThrow({ where: { paymentId: opened.paymentId } })).checkoutUrl]);
  });

  it("the MPP card method: no shared payment token, no challenge id", async () => {
    const way = cardKit.ways.find((w) => w.name.includes("MPP"))!;
    const challenge = await callGateway(seller.host, way.path);
    const proof = await way.pay(challenge, { chain, upstream, seller });
    const res = await callGateway(seller.host, way.path, { headers: proof });
    expect(res.status).toBe(200);
    const id = res.headers.get("svc-payment-id")!;
    const stored = (await db.payment.findUniqueOrThrow({ where: { id } })).railData as { spt: string; challengeId: string };
    const { file, text } = await evidence(id);
    expect(file.proof).toMatchObject({ rail: "card", card_flow: "mpp", authorization: null });
    expect(stored.spt).toMatch(/^spt_/);
    expectNoSecret(text, [stored.spt, stored.challengeId, proof.authorization]);
    expect(text).not.toContain("spt_");
  });

  it("plan credit: the grants drawn, and neither the bearer token nor the Idempotency-Key", async () => {
    const way = creditsKit.ways[0]!;
    const proof = await way.pay(new Response(), { chain, upstream, seller });
    const res = await callGateway(seller.host, way.path, { headers: proof });
    expect(res.status).toBe(200);
    await flushCaptures();
    const { file, text } = await evidence(res.headers.get("svc-payment-id")!);
    expect(file.proof).toMatchObject({ rail: "credits", credit_source: "credit", idempotency_key_used: true, credit_grants: [{ amount_micros: "20000" }] });
    expect(file.payment).toMatchObject({ phase: "paid", next: "retry_same_request" });
    expectNoSecret(text, [proof.authorization!.replace(/^Bearer /, ""), proof["idempotency-key"]]);
  });

  it("another seller's payment id, and an unknown one, are not found", async () => {
    const other = await db.payment.findFirstOrThrow({ where: { sellerId: { not: seller.sellerId } }, select: { id: true } }).catch(() => null);
    if (other) await expect(caller.payments.evidence({ id: other.id })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(caller.payments.evidence({ id: "pay_0000000000000000" })).rejects.toMatchObject({ code: "NOT_FOUND" });
  });
});
