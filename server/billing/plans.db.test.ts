// Plans end to end, in process against real PostgreSQL and a real anvil chain: an agent buys credit with the official
// x402 and MPP clients, plan-covered calls draw it down without a per-call payment (never below zero, whatever the
// concurrency), failures release it, free included units unlock once per human, entitlements show it all.
import { beforeAll, describe, expect, it } from "vitest";
import { withEnvForTests } from "../env";
import * as extendRoute from "../../app/extend/route";
import * as purchaseRoute from "../../app/plans/[planId]/purchase/route";
import { createWalletClient, http, publicActions } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { anvilAddress, anvilPrivateKey } from "../../scripts/lib/local-chain";
import { CHAIN, USDC_ADDRESS } from "../chain/config";
import { TOKEN_ABI } from "../chain/token";
import { createCaller, sessionFor } from "../testing/trpc";
import { getCatalog } from "../catalog/catalog";
import { invalidateSeller, resolveSeller } from "../catalog/resolve-seller";
import { db } from "../db/client";
import {
  callGateway,
  payChallenge,
  payChallengeMpp,
  usdcBalance,
  useGatewayStack,
  type TestChain,
  type FakeUpstream,
  type GatewaySeller,
} from "../testing/gateway";
import { claimCredential, getJson, registerAnonymous, routedStore } from "../testing/identity-harness";
import { releaseDraw, reserveDraw } from "../payments/rails/credits/credits.queries";
import { flushCaptures } from "../payments/rails/credits/capture-queue";
import { newId } from "../lib/ids";
import * as payRoute from "../../app/payments/[id]/pay/route";
import * as manifestRoute from "../../app/manifest.json/route";
import { getCheckoutView } from "../payments/rails/card/checkout/checkout-view";
import { refundCardPaymentForSeller } from "../payments/rails/card/refund-card-payment";
import { payOnPage, TEST_CARD } from "../testing/card";

let chain: TestChain;
let upstream: FakeUpstream;
let seller: GatewaySeller;
let store: ReturnType<typeof routedStore>;
let planId: string;
const SECRET = "fake-upstream-secret-0123456789";
const AAPL = "/api/v1/aggregates/AAPL?from=2024-07-01&to=2024-07-31";
const uniq = () => Math.random().toString(36).slice(2, 8);
// The official x402 client pays at most $1 a payment unless the agent raises it, as one buying credit does.
const BIG = { maxAmountPerPayment: "$100" };

const usdc = (address: string) => usdcBalance(chain.rpcUrl, address);
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

function purchase(body: unknown, headers: Record<string, string> = {}, plan = planId): Promise<Response> {
  return purchaseRoute.POST(
    new Request(`http://${seller.host}/plans/${plan}/purchase`, {
      method: "POST",
      headers: { host: seller.host, "content-type": "application/json", ...headers },
      body: JSON.stringify(body),
    }),
    { params: Promise.resolve({ planId: plan }) },
  );
}

function extend(body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return extendRoute.POST(
    new Request(`http://${seller.host}/extend`, {
      method: "POST",
      headers: { host: seller.host, "content-type": "application/json", ...headers },
      body: JSON.stringify(body),
    }),
    { params: Promise.resolve({}) },
  );
}

/** Buy `amountUsd` of credit for the agent with x402 from anvil wallet `payer`; the 200 body. */
async function buy(token: string, amountUsd: string, payer = 1) {
  const challenge = await purchase({ amountUsd }, bearer(token));
  expect(challenge.status).toBe(402);
  const res = await purchase({ amountUsd }, { ...bearer(token), ...(await payChallenge(challenge, payer, BIG)) });
  expect(res.status).toBe(200);
  return res.json();
}

const entitlements = (token: string) => getJson(store, "/agent/entitlements", bearer(token));

/**
 * `n` plan-covered calls in flight together (in batches of 250 so the test process keeps its sockets), sent with the
 * tokens in turn; their statuses.
 */
async function concurrentCalls(tokens: string | string[], n: number): Promise<number[]> {
  const all = typeof tokens === "string" ? [tokens] : tokens;
  const statuses: number[] = [];
  for (let done = 0; done < n; done += 250) {
    const rs = await Promise.all(
      Array.from({ length: Math.min(250, n - done) }, (_, i) => callGateway(seller.host, AAPL, { headers: bearer(all[(done + i) % all.length]!) })),
    );
    statuses.push(...rs.map((r) => r.status));
  }
  return statuses;
}

/** Three grants for the agent, left with $0.25, $0.25 and $0.24 (37 calls at $0.02; only the last a whole number). */
async function threeLeftovers(agent: { token: string; credentialId: string }) {
  for (let i = 0; i < 3; i++) await buy(agent.token, "5.00", 6);
  const grants = await db.creditGrant.findMany({ where: { credentialId: agent.credentialId }, orderBy: [{ expiresAt: "asc" }, { createdAt: "asc" }] });
  expect(grants).toHaveLength(3);
  for (const [g, micros] of grants.map((g, i) => [g, [250_000n, 250_000n, 240_000n][i]!] as const))
    await db.creditGrant.update({ where: { id: g.id }, data: { remainingMicros: micros } });
}

useGatewayStack(SECRET, (s) => ({ chain, upstream, seller } = s));

beforeAll(async () => {
  store = routedStore(seller.host);
  planId = (await db.plan.findFirstOrThrow({ where: { sellerId: seller.sellerId, slug: "research-credits" } })).id;
}, 60_000);

describe("buying credit on a plan", () => {
  it("answers a 402 for the amount, then credits the plan once with the official x402 client; a replay answers the same", async () => {
    const agent = await registerAnonymous(store);
    // The rules before anything else, then the bearer.
    expect((await purchase({ amountUsd: "4.99" }, bearer(agent.token))).status).toBe(400);
    const noBearer = await purchase({ amountUsd: "5.00" });
    expect(noBearer.status).toBe(401);
    expect((await noBearer.json()).error).toBe("bearer_required");

    const challenge = await purchase({ amountUsd: "5.00" }, bearer(agent.token));
    expect(challenge.status).toBe(402);
    const offer = await challenge.clone().json();
    expect(offer).toMatchObject({
      error: "payment_required",
      payment: { amount: "5.000000", access: "purchase" },
      purchase: { plan: { id: planId }, amountUsd: "5.00" },
    });
    expect(challenge.headers.get("www-authenticate")).toMatch(/^Payment /);
    const payer = anvilAddress(1);
    const before = await usdc(payer);
    const proof = await payChallenge(challenge, 1, BIG);
    const res = await purchase({ amountUsd: "5.00" }, { ...bearer(agent.token), ...proof });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({
      status: "credited",
      payment: { rail: "x402" },
      grant: { amountUsd: "5.000000", remainingUsd: "5.000000", credential: agent.credentialId },
      plan: { id: planId, balanceUsd: "5.000000" },
    });
    expect(res.headers.get("payment-response")).toBeTruthy();
    expect(await usdc(payer)).toBe(before - 5_000_000n);
    const paymentId = body.payment.id;
    expect(await db.ledgerEntry.findMany({ where: { paymentId } })).toMatchObject([{ kind: "charge", amountMicros: 5_000_000n }]);

    // The same proof again: the same result, nothing more credited or charged.
    const replay = await purchase({ amountUsd: "5.00" }, { ...bearer(agent.token), ...proof });
    expect(replay.status).toBe(200);
    expect(await replay.json()).toMatchObject({
      grant: { id: body.grant.id },
      payment: { id: paymentId, rail: "x402", transaction: body.payment.transaction },
    });
    // The same proof with another amount: the spec's 409.
    const other = await purchase({ amountUsd: "6.00" }, { ...bearer(agent.token), ...proof });
    expect(other.status).toBe(409);
    expect((await other.json()).error).toBe("payment_amount_mismatch");
    expect(await db.creditGrant.count({ where: { credentialId: agent.credentialId } })).toBe(1);
    expect(await usdc(payer)).toBe(before - 5_000_000n);

    const ent = await entitlements(agent.token);
    expect(ent.body.plans).toMatchObject([
      { id: planId, balanceUsd: "5.000000", purchasedUsd: "5.000000", grants: [{ id: body.grant.id, sourcePaymentId: paymentId }] },
    ]);
  });

  it("buys with the official MPP client too, the bearer in SVC-Agent-Authorization", async () => {
    const agent = await registerAnonymous(store);
    const headers = { "svc-agent-authorization": `Bearer ${agent.token}` };
    const challenge = await purchase({ amountUsd: "7.50" }, headers);
    const res = await purchase({ amountUsd: "7.50" }, { ...headers, ...(await payChallengeMpp(challenge, 2)) });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ payment: { rail: "mpp" }, grant: { amountUsd: "7.500000" } });
    expect(res.headers.get("payment-receipt")).toBeTruthy();
  });

  it("a purchase proof sent a hundred times at once credits once", async () => {
    const agent = await registerAnonymous(store);
    const payer = anvilAddress(3);
    const before = await usdc(payer);
    const proof = await payChallenge(await purchase({ amountUsd: "5.00" }, bearer(agent.token)), 3, BIG);
    const results = await Promise.all(Array.from({ length: 100 }, () => purchase({ amountUsd: "5.00" }, { ...bearer(agent.token), ...proof })));
    const bodies = await Promise.all(results.map(async (r) => ({ status: r.status, body: await r.json() })));
    const credited = bodies.filter((b) => b.status === 200);
    expect(credited.length).toBeGreaterThanOrEqual(1);
    expect(new Set(credited.map((b) => b.body.grant.id)).size).toBe(1);
    for (const b of bodies.filter((x) => x.status !== 200)) expect(b).toMatchObject({ status: 409, body: { error: "payment_in_progress" } });
    expect(await db.creditGrant.count({ where: { credentialId: agent.credentialId } })).toBe(1);
    expect(await usdc(payer)).toBe(before - 5_000_000n);
    expect((await entitlements(agent.token)).body.plans[0].balanceUsd).toBe("5.000000");
  });

  it("POST /extend tops up the plan held; without one it is access_not_found", async () => {
    const agent = await registerAnonymous(store);
    const none = await extend({ amountUsd: "5.00" }, bearer(agent.token));
    expect(none.status).toBe(403);
    expect((await none.json()).error).toBe("access_not_found");
    await buy(agent.token, "5.00", 4);
    const challenge = await extend({ amountUsd: "6.00" }, bearer(agent.token));
    expect(challenge.status).toBe(402);
    const res = await extend({ amountUsd: "6.00" }, { ...bearer(agent.token), ...(await payChallenge(challenge, 4, BIG)) });
    expect(res.status).toBe(200);
    expect((await res.json()).plan).toMatchObject({ id: planId, balanceUsd: "11.000000", purchasedUsd: "11.000000" });
  });
});

describe("refunding a purchase", () => {
  it("a refund the seller sent on chain and recorded ends the grant it bought, in the refund's transaction", async () => {
    const agent = await registerAnonymous(store);
    const bought = await buy(agent.token, "5.00", 6);
    const payer = anvilAddress(6);
    const w = createWalletClient({ account: privateKeyToAccount(anvilPrivateKey(10)), chain: CHAIN, transport: http(chain.rpcUrl) }).extend(publicActions);
    const hash = await w.writeContract({ address: USDC_ADDRESS, abi: TOKEN_ABI, functionName: "transfer", args: [payer, 5_000_000n] });
    await w.waitForTransactionReceipt({ hash, pollingInterval: 10 });
    const user = await db.sellerUser.findFirstOrThrow({ where: { sellerId: seller.sellerId } });
    await createCaller(sessionFor(user.id, seller.sellerId)).payments.refund({ paymentId: bought.payment.id, transaction: hash });
    expect((await db.creditGrant.findUniqueOrThrow({ where: { id: bought.grant.id } })).remainingMicros).toBe(0n);
    expect((await entitlements(agent.token)).body.plans[0]?.balanceUsd ?? "0.000000").toBe("0.000000");
    expect((await callGateway(seller.host, AAPL, { headers: bearer(agent.token) })).status).toBe(402);
  });
});

describe("buying credit by card", () => {
  it("a person pays the purchase on the hosted checkout (which names the plan); the retry with svc-payment-id credits once", async () => {
    const agent = await registerAnonymous(store);
    const challenge = await purchase({ amountUsd: "5.00" }, bearer(agent.token));
    expect(challenge.status).toBe(402);
    const { payment, card } = await challenge.json();
    expect(card).toMatchObject({ payUrl: expect.stringContaining(payment.id), statusUrl: expect.stringContaining(payment.id) });
    const pay = await payRoute.POST(
      new Request(card.payUrl, {
        method: "POST",
        headers: { host: seller.host, "content-type": "application/json" },
        body: JSON.stringify({ checkout: true }),
      }),
      { params: Promise.resolve({ id: payment.id }) },
    );
    expect(pay.status).toBe(200);
    const view = await getCheckoutView(await getCatalog(await resolveSeller(seller.host)), payment.id);
    expect(view?.purchase).toMatchObject({ kind: "plan", title: expect.stringContaining("Research") });
    expect((await payOnPage(seller.sellerId, payment.id, TEST_CARD.success)).type).not.toBe("failed");
    // Paid on the page: the charge statement made the grant already; the agent's retry shows it, once.
    expect(await db.creditGrant.count({ where: { sourcePaymentId: payment.id } })).toBe(1);
    const retries = await Promise.all(
      Array.from({ length: 5 }, () => purchase({ amountUsd: "5.00" }, { ...bearer(agent.token), "svc-payment-id": payment.id })),
    );
    // A purchase's retries are replays (as with a wallet proof): each answers the same grant, or 409 while another
    // retry holds the delivery; credited once.
    const results = await Promise.all(retries.map(async (r) => ({ status: r.status, body: await r.json() })));
    const credited = results.filter((r) => r.status === 200);
    expect(credited.length).toBeGreaterThanOrEqual(1);
    for (const r of results.filter((x) => x.status !== 200)) expect(r).toMatchObject({ status: 409, body: { error: "payment_in_progress" } });
    for (const c of credited) expect(c.body).toMatchObject({ status: "credited", payment: { rail: "card" }, grant: { amountUsd: "5.000000" } });
    expect(new Set(credited.map((b) => b.body.grant.id)).size).toBe(1);
    const again = await purchase({ amountUsd: "5.00" }, { ...bearer(agent.token), "svc-payment-id": payment.id });
    expect(await again.json()).toMatchObject({ grant: { id: credited[0]!.body.grant.id }, payment: { rail: "card" } });
    expect(await db.creditGrant.count({ where: { credentialId: agent.credentialId } })).toBe(1);
    expect((await entitlements(agent.token)).body.plans[0].balanceUsd).toBe("5.000000");

    // The seller refunds the purchase: the credit it bought ends with it, in the same transaction.
    await refundCardPaymentForSeller({ sellerId: seller.sellerId, actorId: null, paymentId: payment.id });
    expect((await db.creditGrant.findFirstOrThrow({ where: { sourcePaymentId: payment.id } })).remainingMicros).toBe(0n);
    const after = await callGateway(seller.host, AAPL, { headers: bearer(agent.token) });
    expect(after.status).toBe(402);
  });
});

describe("starting the upstream while the credit is reserved", () => {
  it("never serves an answer its reservation did not cover: a credential revoked since its last covered call is refused", async () => {
    const agent = await registerAnonymous(store);
    await buy(agent.token, "5.00", 5);
    expect((await callGateway(seller.host, AAPL, { headers: bearer(agent.token) })).status).toBe(200);
    await db.agentCredential.update({ where: { id: agent.credentialId }, data: { revokedAt: new Date() } });
    const calls = upstream.state.calls;
    const res = await callGateway(seller.host, AAPL, { headers: bearer(agent.token) });
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ error: "invalid_token" });
    expect(res.headers.get("svc-billing")).toBeNull();
    // The upstream had been asked (its credit covered the call before): that answer was dropped, nothing was charged.
    expect(upstream.state.calls).toBe(calls + 1);
    await flushCaptures();
    expect(await db.payment.count({ where: { credentialId: agent.credentialId, rail: "credits" } })).toBe(1);
    expect((await db.creditGrant.findFirstOrThrow({ where: { credentialId: agent.credentialId } })).remainingMicros).toBe(5_000_000n - 20_000n);
  });

  it("starts early only while the credit seen covers more than this call: credit for 3 calls reaches the upstream 3 times", async () => {
    const agent = await registerAnonymous(store);
    await buy(agent.token, "5.00", 5);
    await db.creditGrant.updateMany({ where: { credentialId: agent.credentialId }, data: { remainingMicros: 3n * 20_000n } });
    const calls = upstream.state.calls;
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await callGateway(seller.host, AAPL, { headers: bearer(agent.token) })).status);
    expect(statuses).toEqual([200, 200, 200, 402, 402, 402]);
    expect(upstream.state.calls - calls).toBe(3);
  });
});

describe("drawing credit", () => {
  it("a covered call is served without a per-call payment, billed rail=credits with the balance left; captured off the response path", async () => {
    const agent = await registerAnonymous(store);
    await buy(agent.token, "5.00", 5);
    const calls = upstream.state.calls;
    const res = await callGateway(seller.host, AAPL, { headers: bearer(agent.token) });
    expect(res.status).toBe(200);
    expect(res.headers.get("svc-billing")).toMatch(/rail=credits;.*amount_usd=0\.020000; status=charged;.*balance_usd=4\.980000/);
    expect(upstream.state.calls).toBe(calls + 1);
    expect(upstream.state.lastHeaders.authorization).toBeUndefined();
    await flushCaptures();
    const payment = await db.payment.findUniqueOrThrow({ where: { id: res.headers.get("svc-payment-id")! } });
    expect(payment).toMatchObject({ rail: "credits", status: "consumed", amountMicros: 20_000n, credentialId: agent.credentialId });
    expect(await db.ledgerEntry.findMany({ where: { paymentId: payment.id } })).toMatchObject([{ kind: "draw", amountMicros: 20_000n, rail: "credits" }]);
    expect((await entitlements(agent.token)).body.plans[0].balanceUsd).toBe("4.980000");

    // The console: a draw is not revenue and not refundable (it took no money), and the ledger still balances.
    const user = await db.sellerUser.findFirstOrThrow({ where: { sellerId: seller.sellerId } });
    const console = createCaller(sessionFor(user.id, seller.sellerId));
    const listed = (await console.payments.list({ rail: "credits" })).payments.find((p) => p.id === payment.id);
    expect(listed).toMatchObject({ rail: "credits", status: "consumed", refundable: false });
    expect(await console.payments.totals()).toMatchObject({ ledgerMatchesPayments: true });
    // The overview counts it as a paid call served on credit, and the credential as a payer; revenue is the purchase.
    const before = await console.analytics.overview({ preset: "today" });
    expect(before.totals).toMatchObject({ creditCalls: expect.any(Number), credentials: expect.any(Number) });
    const again = await callGateway(seller.host, AAPL, { headers: bearer(agent.token) });
    expect(again.status).toBe(200);
    await flushCaptures();
    const after = await console.analytics.overview({ preset: "today" });
    expect(after.totals.creditCalls).toBe(before.totals.creditCalls + 1);
    expect(after.totals.paidCalls).toBe(before.totals.paidCalls + 1);
    expect(after.totals.drawnUsd).not.toBe(before.totals.drawnUsd);
    expect(after.totals.netUsd).toBe(before.totals.netUsd);
    expect(after.totals.credentials).toBeGreaterThanOrEqual(1);
  });

  it("an upstream 5xx leaves the balance as it was; no plan is the ordinary 402; an exhausted plan says usage_exhausted", async () => {
    const agent = await registerAnonymous(store);
    await buy(agent.token, "5.00", 5);
    upstream.state.mode = { status: 503, body: { error: "down" } };
    const failed = await callGateway(seller.host, AAPL, { headers: bearer(agent.token) });
    expect(failed.status).toBe(503);
    expect(failed.headers.get("svc-billing")).toContain("status=released");
    expect((await entitlements(agent.token)).body.plans[0].balanceUsd).toBe("5.000000");
    // A 404 or 403 is not a delivery either: nothing drawn.
    for (const [status, error] of [
      [404, "unknown_ticker"],
      [403, "not_included"],
    ] as const) {
      upstream.state.mode = { status, body: { error } };
      const refused = await callGateway(seller.host, AAPL, { headers: bearer(agent.token) });
      expect(refused.status).toBe(status);
      expect(await refused.json()).toEqual({ error });
      expect(refused.headers.get("svc-billing")).toMatch(
        new RegExp(`status=released; charged_usd=0\\.000000; reason=upstream_rejected; upstream_status=${status}`),
      );
    }
    await flushCaptures();
    expect((await entitlements(agent.token)).body.plans[0].balanceUsd).toBe("5.000000");
    upstream.state.mode = { status: 200 };

    const stranger = await registerAnonymous(store);
    const payg = await callGateway(seller.host, AAPL, { headers: bearer(stranger.token) });
    expect(payg.status).toBe(402);
    const paygBody = await payg.json();
    expect(paygBody.reason).toBeUndefined();
    // Where it says the plans are, they are: the manifest lists one covering this meter, with where to buy it.
    expect(paygBody.detail).toContain("GET /manifest.json lists the plans (`plans[].meters`, `plans[].purchase.url`)");
    const manifest = (await (
      await manifestRoute.GET(new Request(`http://${seller.host}/manifest.json`, { headers: { host: seller.host } }), { params: Promise.resolve({}) })
    ).json()) as { plans: { meters: string[]; purchase: { url: string } | null }[] };
    expect(manifest.plans.filter((p) => p.meters.includes(paygBody.payment.meter) && p.purchase?.url)).not.toHaveLength(0);

    await db.creditGrant.updateMany({ where: { credentialId: agent.credentialId }, data: { remainingMicros: 10_000n } });
    const exhausted = await callGateway(seller.host, AAPL, { headers: bearer(agent.token) });
    expect(exhausted.status).toBe(402);
    expect(await exhausted.json()).toMatchObject({ error: "usage_exhausted" });
    // Pay-as-you-go still works for it.
    expect(exhausted.headers.get("payment-required")).toBeTruthy();
  });

  // One credential's 1,000 calls within a second: its per-payer budget (issue 22: a bearer's credential is a payer, 600 a
  // minute by default) is raised so every call reaches the draw this test races.
  it(
    "never overspends: 1,000 concurrent calls against credit for exactly 37 serve 37 and leave 0",
    () =>
      withEnvForTests({ RATE_LIMIT_PAYER_PER_MINUTE: "100000" }, async () => {
        const agent = await registerAnonymous(store);
        await buy(agent.token, "5.00", 6);
        await db.creditGrant.updateMany({ where: { credentialId: agent.credentialId }, data: { remainingMicros: 37n * 20_000n } });
        const calls = upstream.state.calls;
        const statuses = await concurrentCalls(agent.token, 1000);
        expect(statuses.filter((s) => s === 200)).toHaveLength(37);
        expect(statuses.filter((s) => s !== 200).every((s) => s === 402)).toBe(true);
        expect(upstream.state.calls - calls).toBe(37);
        const grant = await db.creditGrant.findFirstOrThrow({ where: { credentialId: agent.credentialId } });
        expect(grant.remainingMicros).toBe(0n);
        await flushCaptures();
        expect(await db.payment.count({ where: { credentialId: agent.credentialId, rail: "credits", status: "consumed" } })).toBe(37);
      }),
    120_000,
  );

  it("a price spans grants: a leftover below the price is drawn, not stranded; a failure gives each grant back its part", async () => {
    const agent = await registerAnonymous(store);
    await buy(agent.token, "5.00", 5);
    await buy(agent.token, "5.00", 5);
    const [older, newer] = await db.creditGrant.findMany({
      where: { credentialId: agent.credentialId },
      orderBy: [{ expiresAt: "asc" }, { createdAt: "asc" }],
    });
    const setRemaining = async (a: bigint, b: bigint) => {
      await db.creditGrant.update({ where: { id: older!.id }, data: { remainingMicros: a } });
      await db.creditGrant.update({ where: { id: newer!.id }, data: { remainingMicros: b } });
    };
    const remaining = async () =>
      (await db.creditGrant.findMany({ where: { id: { in: [older!.id, newer!.id] } } })).map((g) => [
        g.id === older!.id ? "older" : "newer",
        g.remainingMicros,
      ]);

    // $0.015 left on the first grant, below the $0.02 price: it pays $0.015, the next grant the other $0.005.
    await setRemaining(15_000n, 5_000_000n);
    // Entitlements say what that buys per meter: both grants' credit, 250 calls at $0.02 ($5.015 / $0.02, rounded down).
    const credit = (await entitlements(agent.token)).body.credit as { meter: string; priceUsd: string; creditUsd: string; calls: number }[];
    expect(credit.find((c) => c.meter === "aggregates")).toEqual({ meter: "aggregates", priceUsd: "0.020000", creditUsd: "5.015000", calls: 250 });
    for (const c of credit) expect(c.calls).toBe(Math.floor(Number(c.creditUsd) / Number(c.priceUsd) + 1e-9));
    const served = await callGateway(seller.host, AAPL, { headers: bearer(agent.token) });
    expect(served.status).toBe(200);
    // The balance left is the credit left for this meter, over both grants.
    expect(served.headers.get("svc-billing")).toMatch(/amount_usd=0\.020000; status=charged;.*balance_usd=4\.995000/);
    expect(Object.fromEntries(await remaining())).toEqual({ older: 0n, newer: 4_995_000n });
    await flushCaptures();
    expect(await db.ledgerEntry.findMany({ where: { paymentId: served.headers.get("svc-payment-id")! } })).toMatchObject([
      { kind: "draw", amountMicros: 20_000n },
    ]);

    // An upstream failure releases the reservation: each grant gets back exactly what it gave.
    await setRemaining(15_000n, 5_000_000n);
    upstream.state.mode = { status: 503, body: { error: "down" } };
    const failed = await callGateway(seller.host, AAPL, { headers: bearer(agent.token) });
    expect(failed.status).toBe(503);
    upstream.state.mode = { status: 200 };
    expect(Object.fromEntries(await remaining())).toEqual({ older: 15_000n, newer: 5_000_000n });

    // Two leftovers that together make the price pay one call; then nothing is left, and the plan says so.
    await setRemaining(10_000n, 10_000n);
    expect((await callGateway(seller.host, AAPL, { headers: bearer(agent.token) })).status).toBe(200);
    expect(Object.fromEntries(await remaining())).toEqual({ older: 0n, newer: 0n });
    const exhausted = await callGateway(seller.host, AAPL, { headers: bearer(agent.token) });
    expect(exhausted.status).toBe(402);
    expect((await exhausted.json()).error).toBe("usage_exhausted");
    expect((await entitlements(agent.token)).body.credit).toEqual([]);
  });

  it("a draw held from before draws could span grants (one grantId) is released onto that grant", async () => {
    const agent = await registerAnonymous(store);
    await buy(agent.token, "5.00", 5);
    const grant = await db.creditGrant.findFirstOrThrow({ where: { credentialId: agent.credentialId } });
    const held = await reserveDraw({
      paymentId: newId("pay"),
      sellerId: seller.sellerId,
      credentialId: agent.credentialId,
      humanId: null,
      method: "GET",
      path: "/api/v1/aggregates/AAPL",
      query: "",
      operationKey: "aggregates",
      meterKey: "aggregates",
      priceMicros: 20_000n,
      includedUnits: 0,
      leaseSeconds: 60,
    });
    expect(held).toMatchObject({ type: "reserved", source: "credit", remainingMicros: 4_980_000n });
    if (held.type !== "reserved") throw new Error("not reserved");
    await db.payment.update({ where: { id: held.paymentId }, data: { railData: { source: "credit", grantId: grant.id } } });
    expect(await releaseDraw(held.paymentId, "upstream_error")).toBe(true);
    expect((await db.creditGrant.findUniqueOrThrow({ where: { id: grant.id } })).remainingMicros).toBe(5_000_000n);
  });

  it("a draw that waited on a release's lock draws from the released balance (no constraint error on the stale row)", async () => {
    const agent = await registerAnonymous(store);
    await buy(agent.token, "5.00", 5);
    const grant = await db.creditGrant.findFirstOrThrow({ where: { credentialId: agent.credentialId } });
    await db.creditGrant.update({ where: { id: grant.id }, data: { remainingMicros: 10_000n } });
    // A release raises the balance to the price while the draw's statement, begun before it commits, waits on its lock:
    // the draw's snapshot says 10_000, the row it locks says 20_000.
    let drawing: ReturnType<typeof reserveDraw> | undefined;
    await db.$transaction(async (tx) => {
      await tx.$executeRaw`update credit_grants set remaining_micros = 20000 where id = ${grant.id}`;
      drawing = reserveDraw({
        paymentId: newId("pay"),
        sellerId: seller.sellerId,
        credentialId: agent.credentialId,
        humanId: null,
        method: "GET",
        path: "/api/v1/aggregates/AAPL",
        query: "",
        operationKey: "aggregates",
        meterKey: "aggregates",
        priceMicros: 20_000n,
        includedUnits: 0,
        leaseSeconds: 60,
      });
      for (let i = 0; i < 200; i++) {
        const waiting = await db.$queryRaw<{ n: number }[]>`select count(*)::int as n from pg_locks where not granted and locktype = 'transactionid'`;
        if (waiting[0]!.n > 0) return;
        await new Promise((r) => setTimeout(r, 10));
      }
      throw new Error("the draw never waited on the release's lock");
    });
    expect(await drawing).toMatchObject({ type: "reserved", source: "credit", remainingMicros: 0n });
    expect((await db.creditGrant.findUniqueOrThrow({ where: { id: grant.id } })).remainingMicros).toBe(0n);
  });

  it("never overspends across grants: 500 concurrent calls against three leftovers worth exactly 37 calls serve 37", async () => {
    const agent = await registerAnonymous(store);
    await threeLeftovers(agent);
    const calls = upstream.state.calls;
    const statuses = await concurrentCalls(agent.token, 500);
    expect(statuses.filter((s) => s === 200)).toHaveLength(37);
    expect(statuses.filter((s) => s !== 200 && s !== 402)).toEqual([]);
    expect(upstream.state.calls - calls).toBe(37);
    expect((await db.creditGrant.findMany({ where: { credentialId: agent.credentialId } })).map((g) => g.remainingMicros)).toEqual([0n, 0n, 0n]);
    await flushCaptures();
    const drawn = await db.ledgerEntry.aggregate({ where: { kind: "draw", payment: { credentialId: agent.credentialId } }, _sum: { amountMicros: true } });
    expect(drawn._sum.amountMicros).toBe(740_000n);
  }, 120_000);

  it("two credentials of one human drawing at once from shared leftovers serve exactly what they hold", async () => {
    const email = `lee-${uniq()}@example.com`;
    const first = await registerAnonymous(store);
    await threeLeftovers(first);
    const a = await claimCredential(store, first.claimToken, email);
    const second = await registerAnonymous(store);
    const b = await claimCredential(store, second.claimToken, email);
    // The second credential holds one grant of its own: $0.03, one call and a leftover the others' grants complete.
    await buy(b.token, "5.00", 6);
    await db.creditGrant.updateMany({ where: { credentialId: second.credentialId }, data: { remainingMicros: 30_000n } });
    const statuses = await concurrentCalls([a.token, b.token], 500);
    // $0.74 + $0.03 = $0.77: 38 calls at $0.02, and $0.01 that pays none.
    expect(statuses.filter((s) => s === 200)).toHaveLength(38);
    expect(statuses.filter((s) => s !== 200).every((s) => s === 402)).toBe(true);
    const left = await db.creditGrant.findMany({ where: { credentialId: { in: [first.credentialId, second.credentialId] } } });
    expect(left.reduce((sum, g) => sum + g.remainingMicros, 0n)).toBe(10_000n);
    expect(left.every((g) => g.remainingMicros >= 0n)).toBe(true);
  }, 120_000);

  it("draws and releases racing on the same grants neither deadlock nor create or lose credit", async () => {
    const agent = await registerAnonymous(store);
    await threeLeftovers(agent);
    // Every other upstream answer fails: its reservation is released (back onto up to two grants) while other calls
    // lock the same grants to draw.
    upstream.state.mode = { status: 200, statusOf: (n) => (n % 2 ? 503 : 200) };
    const statuses = await concurrentCalls(agent.token, 300);
    upstream.state.mode = { status: 200 };
    expect(statuses.filter((s) => ![200, 402, 503].includes(s))).toEqual([]);
    const served = statuses.filter((s) => s === 200).length;
    expect(served).toBeGreaterThan(0);
    await flushCaptures();
    const left = (await db.creditGrant.findMany({ where: { credentialId: agent.credentialId } })).reduce((sum, g) => sum + g.remainingMicros, 0n);
    const drawn = await db.ledgerEntry.aggregate({ where: { kind: "draw", payment: { credentialId: agent.credentialId } }, _sum: { amountMicros: true } });
    expect(drawn._sum.amountMicros ?? 0n).toBe(BigInt(served) * 20_000n);
    expect(left + BigInt(served) * 20_000n).toBe(740_000n);
  }, 120_000);

  it("credit is shared by the credentials one human claimed; an anonymous credential's credit dies with it", async () => {
    const email = `pat-${uniq()}@example.com`;
    const first = await registerAnonymous(store);
    await buy(first.token, "5.00", 7);
    const a = await claimCredential(store, first.claimToken, email);
    const second = await registerAnonymous(store);
    const b = await claimCredential(store, second.claimToken, email);
    const res = await callGateway(seller.host, AAPL, { headers: bearer(b.token) });
    expect(res.status).toBe(200);
    expect(res.headers.get("svc-billing")).toContain("balance_usd=4.980000");
    expect((await entitlements(a.token)).body).toMatchObject({
      credentials: expect.arrayContaining([first.credentialId, second.credentialId]),
      plans: [{ balanceUsd: "4.980000" }],
    });

    const lonely = await registerAnonymous(store);
    await buy(lonely.token, "5.00", 7);
    await db.agentCredential.update({ where: { id: lonely.credentialId }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const dead = await callGateway(seller.host, AAPL, { headers: bearer(lonely.token) });
    expect(dead.status).toBe(401);
    expect(await dead.json()).toMatchObject({ error: "invalid_token", reason: "token_invalid" });
  });
});

describe("free included units", () => {
  it("unlock when claimed, once per human: a second credential of the same human gets none", async () => {
    const meter = await db.meter.findFirstOrThrow({ where: { sellerId: seller.sellerId, key: "aggregates" } });
    await db.meter.update({ where: { id: meter.id }, data: { includedUnits: 2 } });
    await db.seller.update({ where: { id: seller.sellerId }, data: { catalogVersion: { increment: 1 } } });
    invalidateSeller(seller.sellerId);
    try {
      const email = `quinn-${uniq()}@example.com`;
      const anon = await registerAnonymous(store);
      // Not claimed yet: no free units.
      expect((await callGateway(seller.host, AAPL, { headers: bearer(anon.token) })).status).toBe(402);
      const claimed = await claimCredential(store, anon.claimToken, email);
      for (let i = 0; i < 2; i++) {
        const free = await callGateway(seller.host, AAPL, { headers: bearer(claimed.token) });
        expect(free.status).toBe(200);
        expect(free.headers.get("svc-billing")).toMatch(/amount_usd=0\.000000;.*source=included_units/);
      }
      expect((await callGateway(seller.host, AAPL, { headers: bearer(claimed.token) })).status).toBe(402);
      // Another credential, the same human: the units were the human's, and they are spent.
      const again = await registerAnonymous(store);
      const linked = await claimCredential(store, again.claimToken, email);
      expect((await callGateway(seller.host, AAPL, { headers: bearer(linked.token) })).status).toBe(402);
      expect((await entitlements(linked.token)).body.includedUnits).toEqual([{ meter: "aggregates", included: 2, used: 2, left: 0 }]);
    } finally {
      await db.meter.update({ where: { id: meter.id }, data: { includedUnits: 0 } });
      await db.seller.update({ where: { id: seller.sellerId }, data: { catalogVersion: { increment: 1 } } });
      invalidateSeller(seller.sellerId);
    }
  });
});

describe("the seller's plans and meters (console)", () => {
  const asSeller = async () => {
    const user = await db.sellerUser.findFirstOrThrow({ where: { sellerId: seller.sellerId } });
    return createCaller(sessionFor(user.id, seller.sellerId));
  };
  const manifest = async () =>
    (await manifestRoute.GET(new Request(`http://${seller.host}/manifest.json`, { headers: { host: seller.host } }), { params: Promise.resolve({}) })).json();
  const version = async () => (await db.seller.findUniqueOrThrow({ where: { id: seller.sellerId } })).catalogVersion;
  const audits = (targetId: string) => db.auditLog.findMany({ where: { sellerId: seller.sellerId, targetId }, orderBy: { createdAt: "asc" } });
  const terms = {
    name: "Rates pass",
    description: "Treasury rates only",
    minimumUsd: "2.00",
    maximumUsd: "20.00",
    cardMinimumUsd: "2.00",
    creditValidityDays: 30,
    meters: ["aggregates"],
  };

  it("creates a plan: audit row and version bump with it, in the manifest on the next request, sold at its bounds", async () => {
    const c = await asSeller();
    const v = await version();
    const { planId: id } = await c.catalog.createPlan({ ...terms, slug: "rates-pass" });
    expect(await version()).toBe(v + 1);
    expect(await audits(id)).toMatchObject([{ action: "plan.create", targetType: "plan", before: null, after: { slug: "rates-pass", meters: "aggregates" } }]);
    const listed = (await manifest()).plans.find((p: { id: string }) => p.id === id);
    expect(listed).toMatchObject({
      slug: "rates-pass",
      name: "Rates pass",
      meters: ["aggregates"],
      purchase: { minimumUsd: "2.00", maximumUsd: "20.00", cardMinimumUsd: "2.00", creditValidityDays: 30 },
    });
    // Sold on the next request, at its bounds (the rules come before the bearer).
    const low = await purchase({ amountUsd: "1.99" }, {}, id);
    expect(await low.json()).toMatchObject({ error: "amount_below_minimum", minimumUsd: "2.00" });
    const agent = await registerAnonymous(store);
    const res = await purchase(
      { amountUsd: "2.00" },
      { ...bearer(agent.token), ...(await payChallenge(await purchase({ amountUsd: "2.00" }, bearer(agent.token), id), 7, BIG)) },
      id,
    );
    expect(await res.json()).toMatchObject({ status: "credited", grant: { amountUsd: "2.000000", plan: id } });
    // A slug is a plan's for good.
    await expect(c.catalog.createPlan({ ...terms, slug: "rates-pass" })).rejects.toMatchObject({ code: "CONFLICT", cause: { code: "catalog_conflict" } });
  });

  it("refuses bad terms with the parameter named, and writes nothing", async () => {
    const c = await asSeller();
    const v = await version();
    const bad: [Partial<typeof terms>, string][] = [
      [{ minimumUsd: "30.00" }, "minimumUsd"],
      [{ cardMinimumUsd: "0.49" }, "cardMinimumUsd"],
      [{ maximumUsd: "10000.01" }, "maximumUsd"],
      [{ minimumUsd: "2.005" }, "minimumUsd"],
      [{ meters: ["no-such-meter"] }, "meters"],
      [{ meters: ["aggregates", "advisor"] }, "meters"],
    ];
    for (const [change, parameter] of bad)
      await expect(c.catalog.createPlan({ ...terms, ...change, slug: `bad-${parameter.toLowerCase()}` })).rejects.toMatchObject({
        code: "BAD_REQUEST",
        cause: { code: "invalid_request", extra: { parameter } },
      });
    expect(await version()).toBe(v);
    expect(await db.plan.count({ where: { sellerId: seller.sellerId, slug: { startsWith: "bad-" } } })).toBe(0);
  });

  it("changes terms for the next purchase; a meter cannot be taken from live credit; retiring stops sales, not bought credit", async () => {
    const c = await asSeller();
    const { planId: id } = await c.catalog.createPlan({ ...terms, slug: "retire-me" });
    const agent = await registerAnonymous(store);
    const paid = await purchase(
      { amountUsd: "5.00" },
      { ...bearer(agent.token), ...(await payChallenge(await purchase({ amountUsd: "5.00" }, bearer(agent.token), id), 8, BIG)) },
      id,
    );
    expect(paid.status).toBe(200);

    await c.catalog.updatePlan({ ...terms, planId: id, maximumUsd: "4.00", cardMinimumUsd: "1.00", minimumUsd: "1.00" });
    expect((await purchase({ amountUsd: "5.00" }, {}, id)).status).toBe(400);
    expect((await manifest()).plans.find((p: { id: string }) => p.id === id).purchase.maximumUsd).toBe("4.00");
    // Removing the meter the bought credit pays for would strand it: refused, nothing changed.
    const v = await version();
    await expect(c.catalog.updatePlan({ ...terms, planId: id, meters: ["backtest"] })).rejects.toMatchObject({ cause: { code: "catalog_conflict" } });
    expect(await version()).toBe(v);
    expect((await db.plan.findUniqueOrThrow({ where: { id }, include: { meters: true } })).meters).toHaveLength(1);
    await c.catalog.updatePlan({ ...terms, planId: id, maximumUsd: "4.00", cardMinimumUsd: "1.00", minimumUsd: "1.00", meters: ["aggregates", "backtest"] });

    expect(await c.catalog.retirePlan({ planId: id })).toMatchObject({ alreadyRetired: false });
    expect(await c.catalog.retirePlan({ planId: id })).toMatchObject({ alreadyRetired: true });
    expect((await audits(id)).map((a) => a.action)).toEqual(["plan.create", "plan.update", "plan.update", "plan.retire"]);
    expect((await manifest()).plans.map((p: { id: string }) => p.id)).not.toContain(id);
    expect(await (await purchase({ amountUsd: "2.00" }, bearer(agent.token), id)).json()).toMatchObject({ error: "plan_not_found" });
    // The credit bought on it still pays for calls.
    const call = await callGateway(seller.host, AAPL, { headers: bearer(agent.token) });
    expect(call.status).toBe(200);
    expect(call.headers.get("svc-billing")).toMatch(/rail=credits/);
    expect((await c.catalog.plans()).find((p) => p.id === id)).toMatchObject({ status: "retired", holders: 1, purchasedUsd: "5.000000" });
  });

  it("a meter removal racing a purchase being credited waits for it, then refuses: the new credit keeps its meters", async () => {
    const c = await asSeller();
    const { planId: id } = await c.catalog.createPlan({ ...terms, slug: `race-${uniq()}`, meters: ["aggregates", "backtest"] });
    const agent = await registerAnonymous(store);
    const proof = await payChallenge(await purchase({ amountUsd: "5.00" }, bearer(agent.token), id), 7, BIG);
    // Hold the purchase inside the statement that records its charge and credits it (only this plan's grants).
    await db.$executeRawUnsafe(
      `create or replace function test_hold_grant() returns trigger language plpgsql as $$ begin perform pg_sleep(0.5); return new; end $$`,
    );
    await db.$executeRawUnsafe(
      `create trigger test_hold_grant_${id} before insert on credit_grants for each row when (new.plan_id = '${id}') execute function test_hold_grant()`,
    );
    try {
      const paying = purchase({ amountUsd: "5.00" }, { ...bearer(agent.token), ...proof }, id);
      const deadline = Date.now() + 15_000;
      for (;;) {
        const held = await db.$queryRawUnsafe<unknown[]>(`select 1 from pg_stat_activity where wait_event = 'PgSleep' and query like '%grant_made%'`);
        if (held.length) break;
        if (Date.now() > deadline) throw new Error("the purchase never reached the crediting statement");
        await new Promise((r) => setTimeout(r, 5));
      }
      // The credit is being written: taking "backtest" from the plan now would strand it. The removal must wait for
      // the purchase (the crediting statement holds the plan row) and then see the live credit.
      await expect(c.catalog.updatePlan({ ...terms, planId: id, meters: ["aggregates"] })).rejects.toMatchObject({ cause: { code: "catalog_conflict" } });
      expect((await paying).status).toBe(200);
    } finally {
      await db.$executeRawUnsafe(`drop trigger if exists test_hold_grant_${id} on credit_grants`);
      await db.$executeRawUnsafe(`drop function if exists test_hold_grant()`);
    }
    const plan = await db.plan.findUniqueOrThrow({ where: { id }, include: { meters: { include: { meter: true } } } });
    expect(plan.meters.map((m) => m.meter.key).sort()).toEqual(["aggregates", "backtest"]);
    expect(await db.creditGrant.count({ where: { planId: id, remainingMicros: { gt: 0n } } })).toBe(1);
  });

  it("a meter's free included units change with an audit row and show in the manifest on the next request", async () => {
    const c = await asSeller();
    const meter = await db.meter.findFirstOrThrow({ where: { sellerId: seller.sellerId, key: "avg_interest_rates" } });
    await c.catalog.updateMeter({ meterId: meter.id, title: meter.title, includedUnits: 3 });
    expect((await manifest()).meters.find((m: { key: string }) => m.key === "avg_interest_rates")).toMatchObject({ includedUnits: 3 });
    expect(await audits(meter.id)).toMatchObject([{ action: "meter.update", before: { includedUnits: 0 }, after: { includedUnits: 3 } }]);
    await c.catalog.updateMeter({ meterId: meter.id, title: meter.title, includedUnits: 0 });
  });

  it("Customers shows each credential's plans, credit, spend and last call; the usage chart counts served calls per meter per day", async () => {
    const c = await asSeller();
    const agent = await registerAnonymous(store);
    await buy(agent.token, "5.00", 9);
    const usageBefore = await c.analytics.meterUsage({ preset: "today" });
    for (let i = 0; i < 3; i++) expect((await callGateway(seller.host, AAPL, { headers: bearer(agent.token) })).status).toBe(200);
    await flushCaptures();
    let row;
    for (let cursor: string | null = null, page = 0; !row && page < 50; page++) {
      const res: Awaited<ReturnType<typeof c.customers.credentials>> = await c.customers.credentials({ cursor });
      row = res.credentials.find((x) => x.id === agent.credentialId);
      cursor = res.nextCursor;
      if (!cursor) break;
    }
    expect(row).toMatchObject({
      plans: ["Research credits"],
      balanceUsd: "4.940000",
      spentUsd: "5.000000",
      drawnUsd: "0.060000",
      calls: 3,
      lastCallAt: expect.stringMatching(/^\d{4}-/),
    });
    // Paying wallets are who paid money: a credential drawing on credit is not one of them (its purchase's wallet is).
    const seen: string[] = [];
    for (let page = 1, pages = 1; page <= pages; page++) {
      const res = await c.customers.payers({ preset: "today", page });
      pages = res.pages;
      seen.push(...res.payers.map((p) => p.payer));
    }
    expect(seen).toContain(anvilAddress(9).toLowerCase());
    expect(seen).not.toContain(agent.credentialId);
    const usage = await c.analytics.meterUsage({ preset: "today" });
    expect(usage.meters).toContain("aggregates");
    const today = usage.days.at(-1)!;
    expect(today.calls.aggregates).toBe((usageBefore.days.at(-1)?.calls.aggregates ?? 0) + 3);
  });
});

describe("Idempotency-Key on plan credit (resumable delivery)", () => {
  const keyed = (token: string, key: string) => ({ ...bearer(token), "idempotency-key": key });
  const balance = async (token: string) => (await entitlements(token)).body.plans[0].balanceUsd as string;

  it("a retry with the same key is served again and drawn once; without a key each call draws", async () => {
    const agent = await registerAnonymous(store);
    await buy(agent.token, "5.00", 5);
    const key = `k-${uniq()}`;
    const first = await callGateway(seller.host, AAPL, { headers: keyed(agent.token, key) });
    expect(first.status).toBe(200);
    await flushCaptures();
    const again = await callGateway(seller.host, AAPL, { headers: keyed(agent.token, key) });
    expect(again.status).toBe(200);
    expect(again.headers.get("svc-payment-id")).toBe(first.headers.get("svc-payment-id"));
    expect(again.headers.get("svc-billing")).toMatch(/rail=credits;.*status=charged; replay=true/);
    await flushCaptures();
    expect(await balance(agent.token)).toBe("4.980000");
    // Another key (or none) is another call.
    expect((await callGateway(seller.host, AAPL, { headers: keyed(agent.token, `k-${uniq()}`) })).status).toBe(200);
    expect((await callGateway(seller.host, AAPL, { headers: bearer(agent.token) })).status).toBe(200);
    await flushCaptures();
    expect(await balance(agent.token)).toBe("4.940000");
  });

  it("fifty concurrent retries with one key draw once: each is served or told to wait", async () => {
    const agent = await registerAnonymous(store);
    await buy(agent.token, "5.00", 5);
    const key = `k-${uniq()}`;
    const callsBefore = upstream.state.calls;
    const answers = await Promise.all(Array.from({ length: 50 }, () => callGateway(seller.host, AAPL, { headers: keyed(agent.token, key) })));
    const served = answers.filter((a) => a.status === 200);
    expect(served.filter((a) => !a.headers.get("svc-billing")!.includes("replay=true"))).toHaveLength(1);
    for (const a of answers.filter((x) => x.status !== 200)) {
      expect(a.status).toBe(409);
      expect((await a.json()).error).toBe("payment_in_progress");
    }
    // Issue 33: the upstream runs once per charge (a replay is served the kept answer); it was once per answer served.
    expect(upstream.state.calls - callsBefore).toBe(1);
    await flushCaptures();
    expect(await balance(agent.token)).toBe("4.980000");
    expect(await db.payment.count({ where: { credentialId: agent.credentialId, rail: "credits" } })).toBe(1);
  });

  it("the same key on another request is 409 idempotency_key_reused; a released draw is not served again; a malformed key is 400", async () => {
    const agent = await registerAnonymous(store);
    await buy(agent.token, "5.00", 5);
    const key = `k-${uniq()}`;
    expect((await callGateway(seller.host, AAPL, { headers: keyed(agent.token, key) })).status).toBe(200);
    const other = await callGateway(seller.host, "/api/v1/aggregates/MSFT?from=2024-07-01&to=2024-07-31", { headers: keyed(agent.token, key) });
    expect(other.status).toBe(409);
    expect(await other.json()).toMatchObject({ error: "idempotency_key_reused" });

    // Scoped to the credential: another agent's identical key is its own.
    const stranger = await registerAnonymous(store);
    await buy(stranger.token, "5.00", 6);
    const theirs = await callGateway(seller.host, AAPL, { headers: keyed(stranger.token, key) });
    expect(theirs.status).toBe(200);
    expect(theirs.headers.get("svc-billing")).not.toContain("replay=true");

    upstream.state.mode = { status: 500, body: { error: "boom" } };
    const failedKey = `k-${uniq()}`;
    expect((await callGateway(seller.host, AAPL, { headers: keyed(agent.token, failedKey) })).status).toBe(500);
    upstream.state.mode = { status: 200 };
    const retried = await callGateway(seller.host, AAPL, { headers: keyed(agent.token, failedKey) });
    expect(retried.status).toBe(409);
    expect((await retried.json()).error).toBe("payment_released");

    const bad = await callGateway(seller.host, AAPL, { headers: keyed(agent.token, "has space") });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ error: "invalid_request", reason: "invalid_idempotency_key" });
    await flushCaptures();
    expect(await balance(agent.token)).toBe("4.980000");
  });
});
