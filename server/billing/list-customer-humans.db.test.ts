// The Customers page's people (customers.humans), against real PostgreSQL and a real anvil chain: a human who claimed
// two credentials, one of which bought a plan before the claim and the other another plan after it, both drawing on
// the shared credit through the gateway; shown once, with both credentials and the exact money over them, which adds up
// to the per-credential view. Unclaimed credentials are nobody's; a page holds 25 people and the cursor gives the rest.
import { createWalletClient, http, publicActions } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { beforeAll, describe, expect, it } from "vitest";
import * as purchaseRoute from "../../app/plans/[planId]/purchase/route";
import { seedMarketSeller } from "../../prisma/seed";
import { anvilAddress, anvilPrivateKey } from "../../scripts/lib/local-chain";
import { CHAIN, USDC_ADDRESS } from "../chain/config";
import { TOKEN_ABI } from "../chain/token";
import { db } from "../db/client";
import { newId } from "../lib/ids";
import { callGateway, payChallenge, useGatewayStack, type TestChain, type GatewaySeller } from "../testing/gateway";
import { claimCredential, registerAnonymous, routedStore } from "../testing/identity-harness";
import { createCaller, sessionFor } from "../testing/trpc";
import { flushCaptures } from "../payments/rails/credits/capture-queue";
import { HUMANS_PAGE_SIZE } from "./list-customer-humans";

let chain: TestChain;
let seller: GatewaySeller;
let store: ReturnType<typeof routedStore>;
const SECRET = "fake-upstream-secret-0123456789";
const AAPL = "/api/v1/aggregates/AAPL?from=2024-07-01&to=2024-07-31";
const uniq = () => Math.random().toString(36).slice(2, 8);
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

function purchase(planId: string, body: unknown, headers: Record<string, string>): Promise<Response> {
  return purchaseRoute.POST(
    new Request(`http://${seller.host}/plans/${planId}/purchase`, {
      method: "POST",
      headers: { host: seller.host, "content-type": "application/json", ...headers },
      body: JSON.stringify(body),
    }),
    { params: Promise.resolve({ planId }) },
  );
}

/** Buy credit on a plan with the official x402 client from anvil wallet `payer`. */
async function buy(token: string, slug: string, amountUsd: string, payer: number) {
  const plan = await db.plan.findFirstOrThrow({ where: { sellerId: seller.sellerId, slug } });
  const challenge = await purchase(plan.id, { amountUsd }, bearer(token));
  expect(challenge.status).toBe(402);
  const res = await purchase(plan.id, { amountUsd }, { ...bearer(token), ...(await payChallenge(challenge, payer, { maxAmountPerPayment: "$100" })) });
  expect(res.status).toBe(200);
}

async function served(token: string) {
  const res = await callGateway(seller.host, AAPL, { headers: bearer(token) });
  expect(res.status).toBe(200);
  expect(res.headers.get("svc-billing")).toMatch(/rail=credits/);
}

const asSeller = async (sellerId: string) => {
  const user = await db.sellerUser.findFirstOrThrow({ where: { sellerId } });
  return createCaller(sessionFor(user.id, sellerId));
};

useGatewayStack(SECRET, (s) => ({ chain, seller } = s));

beforeAll(async () => {
  store = routedStore(seller.host);
}, 60_000);

describe("customers.humans", () => {
  it("shows a human once, with both linked credentials and the credit, spend, draws and calls they share", async () => {
    const email = `ada-${uniq()}@example.com`;
    // First credential: buys $5.00 of research credits while anonymous, then is claimed.
    const first = await registerAnonymous(store);
    await buy(first.token, "research-credits", "5.00", 4);
    const a = await claimCredential(store, first.claimToken, email);
    // Second credential of the same human: buys $2.00 of the archive pass after the claim.
    const second = await registerAnonymous(store);
    const b = await claimCredential(store, second.claimToken, email);
    await buy(b.token, "archive-pass", "2.00", 4);
    // Aggregates are covered by research credits only: the second credential draws on the first one's grant.
    await served(b.token);
    await served(b.token);
    await served(a.token);
    await flushCaptures();
    // Someone else here, with a claimed credential and no money; and an anonymous buyer, who is no one's.
    const other = await registerAnonymous(store);
    const o = await claimCredential(store, other.claimToken, `bea-${uniq()}@example.com`);
    const lonely = await registerAnonymous(store);
    await buy(lonely.token, "research-credits", "5.00", 4);

    const c = await asSeller(seller.sellerId);
    const page = await c.customers.humans();
    expect(page.nextCursor).toBeNull();
    // Newest claim first.
    expect(page.humans.map((h) => h.id)).toEqual([o.humanId, a.humanId]);
    const ada = page.humans.find((h) => h.id === a.humanId)!;
    expect(b.humanId).toBe(a.humanId);
    expect(ada).toEqual({
      id: a.humanId,
      email,
      since: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      credentials: [
        { id: first.credentialId, kind: "anonymous", state: "claimed" },
        { id: second.credentialId, kind: "anonymous", state: "claimed" },
      ],
      plans: ["Archive pass", "Research credits"],
      balanceUsd: "6.940000", // 5.00 - 3 x 0.02 + 2.00
      purchasedUsd: "7.000000",
      spentUsd: "7.000000",
      drawnUsd: "0.060000",
      calls: 3,
      lastCallAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    const lastCall = await db.payment.findFirstOrThrow({
      where: { credentialId: { in: [first.credentialId, second.credentialId] }, rail: "credits", status: "consumed" },
      orderBy: { createdAt: "desc" },
    });
    expect(ada.lastCallAt).toBe(lastCall.createdAt.toISOString());
    const firstClaim = await db.agentCredential.findUniqueOrThrow({ where: { id: first.credentialId } });
    expect(ada.since).toBe(firstClaim.claimedAt!.toISOString());
    expect(page.humans.find((h) => h.id === o.humanId)).toMatchObject({
      credentials: [{ id: other.credentialId }],
      plans: [],
      balanceUsd: "0.000000",
      purchasedUsd: "0.000000",
      spentUsd: "0.000000",
      drawnUsd: "0.000000",
      calls: 0,
      lastCallAt: null,
    });

    // The per-credential view of the same money adds up to the human's.
    const creds = (await c.customers.credentials()).credentials;
    const mine = [first.credentialId, second.credentialId].map((id) => creds.find((x) => x.id === id)!);
    expect(mine.map((x) => [x.human, x.balanceUsd, x.spentUsd, x.drawnUsd, x.calls])).toEqual([
      [email, "4.940000", "5.000000", "0.020000", 1],
      [email, "2.000000", "2.000000", "0.040000", 2],
    ]);
    expect(creds.find((x) => x.id === lonely.credentialId)).toMatchObject({ human: null, balanceUsd: "5.000000" });
  }, 120_000);

  it("pages 25 people at a time, newest claim first, with the cursor (ties broken by id); a bad cursor is invalid_request", async () => {
    const tag = newId("tst").slice(4, 12);
    const s = await seedMarketSeller(db, {
      slug: `people-${tag}`,
      name: "People",
      hosts: [`people-${tag}.test`],
      email: `people-${tag}@people.test`,
      password: "pw-123456",
      payTo: null,
      signingSecret: null,
    });
    const base = Date.parse("2026-01-01T00:00:00.000Z");
    const at = (i: number) => Math.max(i, 2);
    const ids: string[] = [];
    for (let i = 0; i < HUMANS_PAGE_SIZE + 2; i++) {
      const human = await db.human.create({ data: { id: newId("hum"), email: `p${i}-${tag}@people.test` } });
      // The three oldest claimed at the same instant, across the page boundary: the id orders them.
      const claimedAt = new Date(base + at(i) * 60_000);
      await db.agentCredential.create({ data: { id: newId("agt"), sellerId: s.sellerId, kind: "anonymous", status: "claimed", humanId: human.id, claimedAt } });
      ids.push(human.id);
    }
    const expected = ids
      .map((id, i) => ({ id, at: at(i) }))
      .sort((x, y) => y.at - x.at || (y.id < x.id ? -1 : 1))
      .map((x) => x.id);
    const c = await asSeller(s.sellerId);
    const one = await c.customers.humans();
    expect(one.humans).toHaveLength(HUMANS_PAGE_SIZE);
    expect(one.nextCursor).toBeTruthy();
    const two = await c.customers.humans({ cursor: one.nextCursor });
    expect(two.nextCursor).toBeNull();
    expect([...one.humans, ...two.humans].map((h) => h.id)).toEqual(expected);
    await expect(c.customers.humans({ cursor: "not-a-cursor" })).rejects.toMatchObject({ cause: { code: "invalid_request" } });
  });

  it("credit refunded or expired is no longer balance or a plan held; a refund nets out of spend; what was bought stays bought", async () => {
    const email = `cy-${uniq()}@example.com`;
    const agent = await registerAnonymous(store);
    const claimed = await claimCredential(store, agent.claimToken, email);
    await buy(claimed.token, "research-credits", "5.00", 5);
    await buy(claimed.token, "archive-pass", "2.00", 5);
    const c = await asSeller(seller.sellerId);
    const person = async () => (await c.customers.humans()).humans.find((h) => h.id === claimed.humanId)!;
    expect(await person()).toMatchObject({
      plans: ["Archive pass", "Research credits"],
      balanceUsd: "7.000000",
      purchasedUsd: "7.000000",
      spentUsd: "7.000000",
    });

    // The seller refunds the research credits on chain and records it: the grant ends in the refund's transaction.
    const research = await db.plan.findFirstOrThrow({ where: { sellerId: seller.sellerId, slug: "research-credits" } });
    const grant = await db.creditGrant.findFirstOrThrow({ where: { credentialId: agent.credentialId, planId: research.id } });
    const w = createWalletClient({ account: privateKeyToAccount(anvilPrivateKey(10)), chain: CHAIN, transport: http(chain.rpcUrl) }).extend(publicActions);
    const hash = await w.writeContract({ address: USDC_ADDRESS, abi: TOKEN_ABI, functionName: "transfer", args: [anvilAddress(5), 5_000_000n] });
    await w.waitForTransactionReceipt({ hash, pollingInterval: 10 });
    await c.payments.refund({ paymentId: grant.sourcePaymentId, transaction: hash });
    expect(await person()).toMatchObject({ plans: ["Archive pass"], balanceUsd: "2.000000", purchasedUsd: "7.000000", spentUsd: "2.000000" });

    // The archive pass drawn down to nothing: no plan held. Then (credit left again) past its expiry: no balance either.
    const archive = await db.creditGrant.findFirstOrThrow({ where: { credentialId: agent.credentialId, planId: { not: research.id } } });
    await db.creditGrant.update({ where: { id: archive.id }, data: { remainingMicros: 0n } });
    expect(await person()).toMatchObject({ plans: [], balanceUsd: "0.000000" });
    await db.creditGrant.update({ where: { id: archive.id }, data: { remainingMicros: 2_000_000n, expiresAt: new Date(Date.now() - 1000) } });
    expect(await person()).toMatchObject({ plans: [], balanceUsd: "0.000000", purchasedUsd: "7.000000", spentUsd: "2.000000", calls: 0 });
  }, 120_000);
});
