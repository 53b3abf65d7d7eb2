// The Plans page's buyers (customers.planBuyers), against real PostgreSQL and a real anvil chain: purchases and a top-up
// bought with the official x402 client, a person who claimed two buying credentials shown once by email, an anonymous
// buyer by credential, amounts net of a recorded refund, credit left after draws, largest first, a limit with "more",
// and nothing of another plan or another seller.
import { beforeAll, describe, expect, it } from "vitest";
import * as extendRoute from "../../app/extend/route";
import * as purchaseRoute from "../../app/plans/[planId]/purchase/route";
import { db } from "../db/client";
import { newId } from "../lib/ids";
import { flushCaptures } from "../payments/rails/credits/capture-queue";
import { callGateway, createGatewaySeller, payChallenge, useGatewayStack, type FakeUpstream, type GatewaySeller } from "../testing/gateway";
import { claimCredential, registerAnonymous, routedStore } from "../testing/identity-harness";
import { createCaller, sessionFor } from "../testing/trpc";

let upstream: FakeUpstream;
let seller: GatewaySeller;
let store: ReturnType<typeof routedStore>;
const SECRET = "fake-upstream-secret-0123456789";
const AAPL = "/api/v1/aggregates/AAPL?from=2024-07-01&to=2024-07-31";
const uniq = () => Math.random().toString(36).slice(2, 8);
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

function post(path: string, body: unknown, headers: Record<string, string>, planId?: string): Promise<Response> {
  const req = new Request(`http://${seller.host}${path}`, {
    method: "POST",
    headers: { host: seller.host, "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
  return planId ? purchaseRoute.POST(req, { params: Promise.resolve({ planId }) }) : extendRoute.POST(req, { params: Promise.resolve({}) });
}

const planOf = (slug: string) => db.plan.findFirstOrThrow({ where: { sellerId: seller.sellerId, slug } });

/** Buy (or, with `topUp`, extend) credit on a plan with the official x402 client from anvil wallet 4. */
async function buy(token: string, slug: string, amountUsd: string, topUp = false) {
  const plan = await planOf(slug);
  const send = (headers: Record<string, string>) =>
    topUp ? post("/extend", { planId: plan.id, amountUsd }, headers) : post(`/plans/${plan.id}/purchase`, { amountUsd }, headers, plan.id);
  const challenge = await send(bearer(token));
  expect(challenge.status).toBe(402);
  const res = await send({ ...bearer(token), ...(await payChallenge(challenge, 4, { maxAmountPerPayment: "$100" })) });
  expect(res.status).toBe(200);
}

const asSeller = async (sellerId: string) => {
  const user = await db.sellerUser.findFirstOrThrow({ where: { sellerId } });
  return createCaller(sessionFor(user.id, sellerId));
};

useGatewayStack(SECRET, (s) => ({ upstream, seller } = s));

beforeAll(async () => {
  store = routedStore(seller.host);
}, 60_000);

describe("customers.planBuyers", () => {
  it("lists each buyer of a plan once, by email or credential, with purchases, top-ups, net amount, credit left and last purchase", async () => {
    const email = `ada-${uniq()}@example.com`;
    // A person: one credential buys $5.00 while anonymous and is claimed; a second one of hers buys $6.00 and tops up $5.00.
    const first = await registerAnonymous(store);
    await buy(first.token, "research-credits", "5.00");
    const a = await claimCredential(store, first.claimToken, email);
    const second = await registerAnonymous(store);
    await claimCredential(store, second.claimToken, email);
    await buy(second.token, "research-credits", "6.00");
    await buy(second.token, "research-credits", "5.00", true);
    // One call drawn on her credit.
    expect((await callGateway(seller.host, AAPL, { headers: bearer(first.token) })).status).toBe(200);
    await flushCaptures();
    // An anonymous buyer of $7.00, $1.00 of which the seller refunded (the ledger row a recorded refund writes).
    const lonely = await registerAnonymous(store);
    await buy(lonely.token, "research-credits", "7.00");
    const lonelyPurchase = await db.creditGrant.findFirstOrThrow({ where: { credentialId: lonely.credentialId } });
    await db.ledgerEntry.create({
      data: {
        id: newId("led"),
        sellerId: seller.sellerId,
        paymentId: lonelyPurchase.sourcePaymentId,
        kind: "refund",
        rail: "x402",
        operationKey: "plan_purchase",
        amountMicros: 1_000_000n,
        transaction: `0x${uniq().padEnd(64, "0")}`,
        logIndex: 0,
      },
    });
    // Another plan's buyer is not this plan's.
    const archive = await registerAnonymous(store);
    await buy(archive.token, "archive-pass", "2.00");

    const c = await asSeller(seller.sellerId);
    const research = await planOf("research-credits");
    const got = await c.customers.planBuyers({ planId: research.id });
    const lastOf = async (ids: string[]) =>
      (
        await db.creditGrant.findFirstOrThrow({ where: { credentialId: { in: ids }, planId: research.id }, orderBy: { createdAt: "desc" } })
      ).createdAt.toISOString();
    expect(got).toEqual({
      more: false,
      buyers: [
        {
          humanId: a.humanId,
          email,
          credentialIds: [first.credentialId, second.credentialId].sort(),
          purchases: 2,
          topUps: 1,
          boughtUsd: "16.000000",
          creditLeftUsd: "15.980000", // 16.00 - one 0.02 call
          lastPurchaseAt: await lastOf([first.credentialId, second.credentialId]),
        },
        {
          humanId: null,
          email: null,
          credentialIds: [lonely.credentialId],
          purchases: 1,
          topUps: 0,
          boughtUsd: "6.000000", // 7.00 less the 1.00 refunded
          creditLeftUsd: "7.000000",
          lastPurchaseAt: await lastOf([lonely.credentialId]),
        },
      ],
    });
    // Largest first, a limit, and whether there are more.
    expect(await c.customers.planBuyers({ planId: research.id, limit: 1 })).toMatchObject({ more: true, buyers: [{ humanId: a.humanId }] });
    // An empty plan, and another seller asking for this plan: nobody.
    const other = await createGatewaySeller(upstream.url, { signingSecret: SECRET });
    expect(await (await asSeller(other.sellerId)).customers.planBuyers({ planId: research.id })).toEqual({ buyers: [], more: false });
    const unsold = await db.plan.findFirstOrThrow({ where: { sellerId: other.sellerId, slug: "research-credits" } });
    expect(await (await asSeller(other.sellerId)).customers.planBuyers({ planId: unsold.id })).toEqual({ buyers: [], more: false });
  }, 60_000);
});
