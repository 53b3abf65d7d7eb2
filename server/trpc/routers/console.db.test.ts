// Every console procedure is seller-scoped from the session: seller B, signed in, reads none of seller A's numbers,
// payments, customers, settings or audit rows, and changes none of them; nobody without a seller session gets
// anything. The table below must name every procedure of the router (a new one fails this file until it is added).
import { beforeAll, describe, expect, it } from "vitest";
import { seedMarketSeller } from "../../../prisma/seed";
import { db } from "../../db/client";
import { newId } from "../../lib/ids";
import { CONSOLE_DAY, seedConsoleDay } from "../../testing/console-day";
import { createCaller, sessionFor } from "../../testing/trpc";
import { appRouter } from "../root";

type Caller = ReturnType<typeof createCaller>;
type Seller = { sellerId: string; userId: string; caller: Caller };

const day = { preset: "custom" as const, from: CONSOLE_DAY, to: CONSOLE_DAY };
const PLAN_TERMS = { name: "P", minimumUsd: "1.00", maximumUsd: "9.00", cardMinimumUsd: "1.00", creditValidityDays: 30, meters: ["aggregates"] };
let a: Seller;
let b: Seller;
let aPayment: string;
let aCredential: string;
/** A human with a claimed credential at A (holding credit) and another at B: each seller sees only its own. */
let aHuman: string;
/** A human with a credential at A only: not one of B's people at all. */
let aOnlyHuman: string;
let aHumanCredential: string;
let bHumanCredential: string;

async function seller(label: string): Promise<Seller> {
  const tag = newId("tst").slice(4, 12);
  const s = await seedMarketSeller(db, {
    slug: `${label}-${tag}`,
    name: label,
    hosts: [`${label}-${tag}.test`],
    email: `${label}-${tag}@scope.test`,
    password: "pw-123456",
    payTo: null,
    signingSecret: null,
  });
  return { ...s, caller: createCaller(sessionFor(s.userId, s.sellerId)) };
}

beforeAll(async () => {
  a = await seller("scope-a");
  b = await seller("scope-b");
  await seedConsoleDay(db, a.sellerId);
  aPayment = (await db.payment.findFirstOrThrow({ where: { sellerId: a.sellerId, status: "refunded" } })).id;
  aCredential = newId("agt");
  await db.agentCredential.create({ data: { id: aCredential, sellerId: a.sellerId, kind: "anonymous", status: "unclaimed" } });
  aHuman = (await db.human.create({ data: { id: newId("hum"), email: `${newId("tst").slice(4, 12)}@people.test` } })).id;
  [aHumanCredential, bHumanCredential] = [newId("agt"), newId("agt")];
  for (const [id, sellerId] of [
    [aHumanCredential, a.sellerId],
    [bHumanCredential, b.sellerId],
  ] as const)
    await db.agentCredential.create({ data: { id, sellerId, kind: "anonymous", status: "claimed", humanId: aHuman, claimedAt: new Date() } });
  aOnlyHuman = (await db.human.create({ data: { id: newId("hum"), email: `${newId("tst").slice(4, 12)}@people.test` } })).id;
  await db.agentCredential.create({
    data: { id: newId("agt"), sellerId: a.sellerId, kind: "anonymous", status: "claimed", humanId: aOnlyHuman, claimedAt: new Date(Date.now() - 60_000) },
  });
  const plan = await db.plan.findFirstOrThrow({ where: { sellerId: a.sellerId, slug: "research-credits" } });
  const bought = await db.payment.create({
    data: {
      id: newId("pay"),
      sellerId: a.sellerId,
      status: "settled",
      rail: "x402",
      method: "POST",
      path: `/plans/${plan.id}/purchase`,
      query: "",
      operationKey: "plan_purchase",
      amountMicros: 5_000_000n,
      credentialId: aHumanCredential,
      expiresAt: new Date(Date.now() + 60_000),
    },
  });
  await db.creditGrant.create({
    data: {
      id: newId("grt"),
      sellerId: a.sellerId,
      planId: plan.id,
      credentialId: aHumanCredential,
      sourcePaymentId: bought.id,
      amountMicros: 5_000_000n,
      remainingMicros: 5_000_000n,
      expiresAt: new Date(Date.now() + 86_400_000),
    },
  });
  const meter = (await a.caller.catalog.overview()).meters.find((m) => m.key === "basis")!;
  await a.caller.catalog.updatePrice({ meterId: meter.id, amountUsd: "0.06" });
  await a.caller.settings.update({ explorerTxUrls: { "eip155:8453": "https://explorer.a.test/tx/{tx}" }, ethUsd: "3000" });
});

/** What B must see of A's data, per procedure: nothing. */
const ISOLATION: Record<string, () => Promise<void>> = {
  "analytics.overview": async () => {
    const o = await b.caller.analytics.overview(day);
    expect(o.totals).toMatchObject({ netUsd: "0.000000", paidCalls: 0, wallets: 0, refunds: 0, previousNetUsd: "0.000000" });
    expect(o.byOperation).toEqual([]);
    expect(o.series.every((s) => s.netUsd === "0.000000")).toBe(true);
    expect((await a.caller.analytics.overview(day)).totals.paidCalls).toBe(10);
  },
  "analytics.funnel": async () => {
    const f = await b.caller.analytics.funnel(day);
    expect(Object.values(f.steps).every((n) => n === 0)).toBe(true);
    expect(f.reasons).toEqual([]);
    expect((await a.caller.analytics.funnel(day)).steps.issued).toBe(15);
  },
  "analytics.margin": async () => {
    const m = await b.caller.analytics.margin(day);
    expect(m.rows).toEqual([]);
    expect(m.rate).toBeNull();
  },
  "payments.list": async () => {
    expect((await b.caller.payments.list({ includeChallenged: true })).payments).toEqual([]);
    expect((await b.caller.payments.list({ payer: "0x1111111111111111111111111111111111111111" })).payments).toEqual([]);
    expect((await a.caller.payments.list({ from: CONSOLE_DAY, to: CONSOLE_DAY })).payments.length).toBeGreaterThan(0);
  },
  "payments.filterOptions": async () => {
    const o = await b.caller.payments.filterOptions();
    expect(o.operations).toContain("aggregates");
  },
  "payments.totals": async () => {
    expect(await b.caller.payments.totals()).toMatchObject({ revenueUsd: "0.000000", charges: 0, refunds: 0 });
  },
  "payments.detail": async () => {
    await expect(b.caller.payments.detail({ id: aPayment })).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect((await a.caller.payments.detail({ id: aPayment })).status).toBe("refunded");
  },
  // The evidence file: B gets nothing of A's payment, not even that it exists; A gets its own.
  "payments.evidence": async () => {
    await expect(b.caller.payments.evidence({ id: aPayment })).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect((await a.caller.payments.evidence({ id: aPayment })).payment).toMatchObject({ id: aPayment, status: "refunded" });
  },
  "customers.customer": async () => {
    const payer = (await db.payment.findUniqueOrThrow({ where: { id: aPayment } })).payer!;
    await expect(b.caller.customers.customer({ id: payer })).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect((await a.caller.customers.customer({ id: payer })).spend.refunds).toBeGreaterThan(0);
  },
  "payments.refundsSummary": async () => {
    expect(await b.caller.payments.refundsSummary({})).toMatchObject({ count: 0, amountUsd: "0.000000" });
    expect((await a.caller.payments.refundsSummary({})).count).toBe(1);
  },
  // The team: each seller's members only; B cannot change A's members' roles.
  "team.members": async () => {
    expect((await b.caller.team.members()).members.map((m) => m.email)).not.toContain((await a.caller.team.members()).members[0]!.email);
  },
  "team.invite": async () => {
    // No origin in this context (the console's route gives one): refused before anything is written.
    await expect(b.caller.team.invite({ email: "someone@x.test", role: "viewer" })).rejects.toMatchObject({ code: "BAD_REQUEST" });
  },
  "team.setRole": async () => {
    const aMember = (await a.caller.team.members()).members[0]!.id;
    await expect(b.caller.team.setRole({ userId: aMember, role: "viewer" })).rejects.toMatchObject({ code: "NOT_FOUND" });
  },
  // Two-step authentication acts on the caller's own account only: no input names a user.
  "twoStep.status": async () => {
    expect(await b.caller.twoStep.status()).toMatchObject({ enabled: false });
  },
  "twoStep.begin": async () => {
    expect((await b.caller.twoStep.begin()).uri).toContain(encodeURIComponent("@"));
    expect(await db.sellerTwoStep.count({ where: { sellerUserId: a.userId } })).toBe(0);
  },
  "twoStep.enable": async () => {
    await expect(b.caller.twoStep.enable({ code: "000000", password: "not-the-password" })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    expect(await db.sellerTwoStep.count({ where: { sellerUserId: a.userId } })).toBe(0);
  },
  "twoStep.disable": async () => {
    await expect(b.caller.twoStep.disable({ code: "000000" })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    expect(await a.caller.twoStep.status()).toMatchObject({ enabled: false });
  },
  "twoStep.regenerateRecoveryCodes": async () => {
    await expect(b.caller.twoStep.regenerateRecoveryCodes({ code: "000000", password: "not-the-password" })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    expect(await db.sellerRecoveryCode.count({ where: { sellerUserId: a.userId } })).toBe(0);
  },
  "payments.refunds": async () => {
    expect((await b.caller.payments.refunds()).refunds).toEqual([]);
    expect((await a.caller.payments.refunds()).refunds.map((r) => r.paymentId)).toEqual([aPayment]);
  },
  // One refund procedure for every rail: with a transaction (a wallet refund) and without (a card refund).
  "payments.refund": async () => {
    await expect(b.caller.payments.refund({ paymentId: aPayment, transaction: `0x${"1".repeat(64)}` })).rejects.toMatchObject({ code: "NOT_FOUND" });
    const before = await db.payment.findUniqueOrThrow({ where: { id: aPayment }, select: { status: true, updatedAt: true } });
    await expect(b.caller.payments.refund({ paymentId: aPayment })).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect(await db.payment.findUniqueOrThrow({ where: { id: aPayment }, select: { status: true, updatedAt: true } })).toEqual(before);
  },
  "customers.payers": async () => {
    expect(await b.caller.customers.payers(day)).toMatchObject({ total: 0, payers: [] });
    expect((await a.caller.customers.payers(day)).total).toBe(4);
  },
  "customers.credentials": async () => {
    expect((await b.caller.customers.credentials()).credentials.map((c) => c.id)).not.toContain(aCredential);
    expect((await a.caller.customers.credentials()).credentials.map((c) => c.id)).toContain(aCredential);
  },
  "customers.humans": async () => {
    // The same human at B: B's credential only, none of A's credit.
    expect((await b.caller.customers.humans()).humans).toEqual([
      expect.objectContaining({ id: aHuman, credentials: [expect.objectContaining({ id: bHumanCredential })], plans: [], balanceUsd: "0.000000" }),
    ]);
    expect((await a.caller.customers.humans()).humans).toEqual([
      expect.objectContaining({
        id: aHuman,
        credentials: [expect.objectContaining({ id: aHumanCredential })],
        plans: ["Research credits"],
        balanceUsd: "5.000000",
      }),
      expect.objectContaining({ id: aOnlyHuman, plans: [], balanceUsd: "0.000000" }),
    ]);
  },
  "customers.planBuyers": async () => {
    const plan = await db.plan.findFirstOrThrow({ where: { sellerId: a.sellerId, slug: "research-credits" } });
    expect(await b.caller.customers.planBuyers({ planId: plan.id })).toEqual({ buyers: [], more: false });
    expect((await a.caller.customers.planBuyers({ planId: plan.id })).buyers).toEqual([
      expect.objectContaining({ humanId: aHuman, credentialIds: [aHumanCredential], boughtUsd: "5.000000", creditLeftUsd: "5.000000" }),
    ]);
  },
  "settings.get": async () => {
    const s = await b.caller.settings.get();
    expect(s.ethUsd).toBeNull();
    expect(s.explorers.find((e) => e.network === "eip155:8453")!.format).toBeNull();
  },
  "settings.update": async () => {
    await b.caller.settings.update({ explorerTxUrls: {}, ethUsd: "1" });
    expect((await a.caller.settings.get()).ethUsd).toMatchObject({ usd: "3000.000000" });
    expect((await a.caller.settings.get()).explorers.find((e) => e.network === "eip155:8453")!.format).toBe("https://explorer.a.test/tx/{tx}");
  },
  "audit.list": async () => {
    const seen = (await b.caller.audit.list()).entries;
    expect(seen.map((e) => e.action)).toEqual(["settings.update"]); // B's own change just above, nothing of A's
    expect((await a.caller.audit.list()).entries.map((e) => e.action).sort()).toEqual(["price.update", "settings.update"]);
    expect((await b.caller.audit.list({ targetType: "payment", targetId: aPayment })).entries).toEqual([]);
  },
  "audit.filterOptions": async () => {
    expect((await b.caller.audit.filterOptions()).actors.map((x) => x.id)).toEqual([b.userId]);
  },
  "catalog.overview": async () => {
    expect((await b.caller.catalog.overview()).seller.id).toBe(b.sellerId);
  },
  "analytics.meterUsage": async () => {
    expect((await a.caller.analytics.meterUsage(day)).meters.length).toBeGreaterThan(0);
    const bUsage = await b.caller.analytics.meterUsage(day);
    expect(bUsage.meters).toEqual([]);
    expect(bUsage.days.every((d) => Object.keys(d.calls).length === 0)).toBe(true);
  },
  "catalog.plans": async () => {
    const aPlans = (await a.caller.catalog.plans()).map((p) => p.id);
    expect(aPlans.length).toBeGreaterThan(0);
    expect((await b.caller.catalog.plans()).map((p) => p.id)).not.toEqual(expect.arrayContaining([aPlans[0]]));
  },
  "catalog.createPlan": async () => {
    // B's plan is B's: A's catalog does not gain it.
    const before = (await a.caller.catalog.plans()).length;
    await b.caller.catalog.createPlan({ ...PLAN_TERMS, slug: "b-only" });
    expect(await a.caller.catalog.plans()).toHaveLength(before);
  },
  "catalog.updatePlan": async () => {
    const aPlan = (await a.caller.catalog.plans()).find((p) => p.kind === "credit")!;
    await expect(b.caller.catalog.updatePlan({ ...PLAN_TERMS, planId: aPlan.id })).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect((await a.caller.catalog.plans()).find((p) => p.id === aPlan.id)).toEqual(aPlan);
  },
  "catalog.retirePlan": async () => {
    const aPlan = (await a.caller.catalog.plans()).find((p) => p.kind === "credit")!;
    await expect(b.caller.catalog.retirePlan({ planId: aPlan.id })).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect((await a.caller.catalog.plans()).find((p) => p.id === aPlan.id)!.status).toBe("live");
  },
  "catalog.updateMeter": async () => {
    const aMeter = (await a.caller.catalog.overview()).meters.find((m) => m.key === "aggregates")!;
    await expect(b.caller.catalog.updateMeter({ meterId: aMeter.id, title: "B's", includedUnits: 9 })).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect((await a.caller.catalog.overview()).meters.find((m) => m.key === "aggregates")).toMatchObject({ title: aMeter.title, includedUnits: 0 });
  },
  "catalog.updatePrice": async () => {
    const aMeter = (await a.caller.catalog.overview()).meters.find((m) => m.key === "aggregates")!;
    await expect(b.caller.catalog.updatePrice({ meterId: aMeter.id, amountUsd: "9" })).rejects.toMatchObject({ code: "NOT_FOUND" });
  },
  "analytics.headline": async () => {
    expect((await b.caller.analytics.headline()).last30Days.netUsd).toBe("0.000000");
  },
  "analytics.setupChecklist": async () => {
    await a.caller.settings.updateMerchant({ contactEmail: "help@a.example", termsText: null, refundPolicy: null });
    expect((await a.caller.analytics.setupChecklist()).contactEmail).toBe("help@a.example");
    const seen = await b.caller.analytics.setupChecklist();
    expect(seen.contactEmail).not.toBe("help@a.example");
  },
  "settings.cardProcessor": async () => {
    // The deployment's, the same for every seller: nothing of A's, and never a key.
    expect(await b.caller.settings.cardProcessor()).toEqual(await a.caller.settings.cardProcessor());
  },
  "analytics.topCustomers": async () => {
    expect(await b.caller.analytics.topCustomers(day)).toMatchObject({ wallets: [], credentials: [] });
    expect((await a.caller.analytics.topCustomers(day)).wallets.length).toBeGreaterThan(0);
  },
  "catalog.previewPrice": async () => {
    const aMeter = (await a.caller.catalog.overview()).meters.find((m) => m.key === "aggregates")!;
    await expect(b.caller.catalog.previewPrice({ meterId: aMeter.id, amountUsd: "9" })).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect((await a.caller.catalog.previewPrice({ meterId: aMeter.id, amountUsd: "9" })).meter.key).toBe("aggregates");
  },
  "catalog.previewPlan": async () => {
    const aPlan = (await a.caller.catalog.plans()).find((p) => p.kind === "credit")!;
    await expect(b.caller.catalog.previewPlan({ ...PLAN_TERMS, planId: aPlan.id })).rejects.toMatchObject({ code: "NOT_FOUND" });
  },
  "payments.summary": async () => {
    expect(await b.caller.payments.summary({ from: CONSOLE_DAY, to: CONSOLE_DAY })).toMatchObject({ count: 0, amountUsd: "0.000000" });
    expect((await a.caller.payments.summary({ from: CONSOLE_DAY, to: CONSOLE_DAY })).count).toBeGreaterThan(0);
  },
  "search.global": async () => {
    expect((await b.caller.search.global({ q: aPayment })).hits).toEqual([]);
    expect((await a.caller.search.global({ q: aPayment })).hits.map((h) => h.id)).toEqual([aPayment]);
  },
  // Global by design (the archive belongs to the deployment), but for signed-in sellers only: checked below.
  "archive.coverage": async () => {},
  // Global by design too (the operations registry's coverage), for signed-in sellers only.
  "coverage.operations": async () => {},
  "identity.providers": async () => {
    expect((await b.caller.identity.providers()).hosts.map((h) => h.hostname)).not.toEqual((await a.caller.identity.providers()).hosts.map((h) => h.hostname));
  },
  // Identity provider changes: covered one by one in identity.db.test.ts ("another seller can neither see nor change").
  "identity.addProvider": async () => {},
  "identity.setProviderEnabled": async () => {},
  "identity.removeProvider": async () => {},
  // Webhooks: A's endpoint, delivery, alert and threshold (made directly: no audit rows) are invisible and untouchable for B.
  "webhooks.eventTypes": async () => {
    expect((await b.caller.webhooks.eventTypes()).map((t) => t.type)).toContain("payment.settled");
  },
  "webhooks.endpoints": async () => {
    const { endpointId } = await aWebhook();
    expect((await b.caller.webhooks.endpoints()).map((e) => e.id)).not.toContain(endpointId);
    expect((await a.caller.webhooks.endpoints()).map((e) => e.id)).toContain(endpointId);
  },
  "webhooks.createEndpoint": async () => {
    await b.caller.webhooks.createEndpoint({ url: "https://hooks.b.example.com/x" });
    expect((await a.caller.webhooks.endpoints()).map((e) => e.url)).not.toContain("https://hooks.b.example.com/x");
  },
  "webhooks.updateEndpoint": async () => {
    const { endpointId } = await aWebhook();
    await expect(b.caller.webhooks.updateEndpoint({ id: endpointId, url: "https://evil.example.com/" })).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect((await a.caller.webhooks.endpoints()).find((e) => e.id === endpointId)!.url).toBe("https://hooks.a.example.com/in");
  },
  "webhooks.rotateSecret": async () => {
    await expect(b.caller.webhooks.rotateSecret({ id: (await aWebhook()).endpointId })).rejects.toMatchObject({ code: "NOT_FOUND" });
  },
  "webhooks.deleteEndpoint": async () => {
    await expect(b.caller.webhooks.deleteEndpoint({ id: (await aWebhook()).endpointId })).rejects.toMatchObject({ code: "NOT_FOUND" });
  },
  "webhooks.deliveries": async () => {
    const { endpointId } = await aWebhook();
    await expect(b.caller.webhooks.deliveries({ endpointId })).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect((await a.caller.webhooks.deliveries({ endpointId })).deliveries).toHaveLength(1);
  },
  "webhooks.delivery": async () => {
    await expect(b.caller.webhooks.delivery({ id: (await aWebhook()).deliveryId })).rejects.toMatchObject({ code: "NOT_FOUND" });
  },
  "webhooks.resend": async () => {
    const { deliveryId } = await aWebhook();
    await expect(b.caller.webhooks.resend({ id: deliveryId })).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect(await db.webhookDelivery.findUniqueOrThrow({ where: { id: deliveryId } })).toMatchObject({ status: "failed", maxAttempts: null });
  },
  "webhooks.alerts": async () => {
    await aWebhook();
    expect(await b.caller.webhooks.alerts()).toEqual([]);
    expect((await a.caller.webhooks.alerts()).map((x) => x.kind)).toEqual(["webhook_endpoint_disabled"]);
  },
  "webhooks.creditThresholds": async () => {
    const { planId } = await aWebhook();
    expect((await b.caller.webhooks.creditThresholds()).map((p) => p.planId)).not.toContain(planId);
    expect((await a.caller.webhooks.creditThresholds()).find((p) => p.planId === planId)!.thresholdUsd).toBe("1.000000");
  },
  "webhooks.setCreditThreshold": async () => {
    const { planId } = await aWebhook();
    await expect(b.caller.webhooks.setCreditThreshold({ planId, thresholdUsd: "9" })).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect((await db.planCreditThreshold.findUniqueOrThrow({ where: { planId } })).lowMicros).toBe(1_000_000n);
  },
  // Last, so the entries above see none of the rows they write: a card payment of A's with its payer's email.
  "customers.cardPayers": async () => {
    const id = newId("pay");
    await db.$executeRawUnsafe(
      `insert into payments select (jsonb_populate_record(s, $2::jsonb)).* from payments s where s.id = $1`,
      aPayment,
      JSON.stringify({ id, rail: "card", status: "consumed", lock_key: `card:${id}`, transaction: null }),
    );
    await db.$executeRawUnsafe(
      `insert into card_payments (payment_id, processor, flow, card_brand, card_last4, payer_email, updated_at) values ($1, 'test', 'checkout', 'visa', '4242', 'payer@a.example', now())`,
      id,
    );
    expect((await b.caller.customers.cardPayers(day)).payers).toEqual([]);
    expect((await a.caller.customers.cardPayers(day)).payers).toMatchObject([{ email: "payer@a.example", payments: 1 }]);
  },
  "settings.updateMerchant": async () => {
    await a.caller.settings.updateMerchant({ contactEmail: "help@a.example", termsText: null, refundPolicy: null });
    await b.caller.settings.updateMerchant({ contactEmail: "help@b.example", termsText: "B's terms", refundPolicy: null });
    expect((await a.caller.settings.get()).merchant).toMatchObject({ contactEmail: "help@a.example", termsText: null });
  },
  "settings.updateUnsettledCap": async () => {
    await a.caller.settings.updateUnsettledCap({ capUsd: "2.5" });
    expect(await b.caller.settings.updateUnsettledCap({ capUsd: "0" })).toMatchObject({ usd: "0.000000" });
    expect((await a.caller.settings.get()).unsettledCap).toMatchObject({ usd: "2.500000", defaultUsd: "0.500000" });
    expect((await b.caller.settings.get()).unsettledCap.usd).toBe("0.000000");
  },
  "settings.updateCreditLease": async () => {
    await a.caller.settings.updateCreditLease({ calls: "7", seconds: "3" });
    expect(await b.caller.settings.updateCreditLease({ calls: "0", seconds: null })).toMatchObject({ calls: 0, ms: null, on: false });
    expect((await a.caller.settings.get()).creditLease).toMatchObject({ calls: 7, ms: 3_000 });
    expect((await b.caller.settings.get()).creditLease).toMatchObject({ calls: 0, ms: null });
  },
  "settings.updatePayoutAddress": async () => {
    const payTo = "0x71bE63f3384f5fb98995898A86B02Fb2426c5788";
    expect(await b.caller.settings.updatePayoutAddress({ address: payTo, password: "pw-123456" })).toMatchObject({ previous: null, payTo });
    expect((await a.caller.settings.get()).storefront.payTo).toBeNull();
    expect((await b.caller.settings.get()).storefront.payTo).toBe(payTo);
  },
};

let aWebhookRows: Promise<{ endpointId: string; deliveryId: string; planId: string }> | undefined;
/** A's webhook endpoint with one failed delivery, an alert and a credit threshold, written straight to the tables. */
function aWebhook() {
  aWebhookRows ??= (async () => {
    const endpointId = newId("whe");
    await db.webhookEndpoint.create({
      data: { id: endpointId, sellerId: a.sellerId, url: "https://hooks.a.example.com/in", eventTypes: [], secretEnc: "x.y.z" },
    });
    await db.$queryRawUnsafe("select emit_event($1, 'operation.upstream_failing', 'aggregates', '{}'::jsonb)", a.sellerId);
    const delivery = await db.webhookDelivery.findFirstOrThrow({ where: { endpointId } });
    await db.webhookDelivery.update({ where: { id: delivery.id }, data: { status: "failed" } });
    await db.alert.create({ data: { id: newId("alr"), sellerId: a.sellerId, kind: "webhook_endpoint_disabled", subject: endpointId, details: {} } });
    const planId = (await db.plan.findFirstOrThrow({ where: { sellerId: a.sellerId, kind: "credit" } })).id;
    await db.planCreditThreshold.create({ data: { planId, sellerId: a.sellerId, lowMicros: 1_000_000n } });
    return { endpointId, deliveryId: delivery.id, planId };
  })();
  return aWebhookRows;
}

/** A valid input for each procedure, for the unauthenticated check. */
const INPUT: Record<string, unknown> = {
  "payments.detail": { id: "pay_x" },
  "payments.evidence": { id: "pay_x" },
  "payments.refund": { paymentId: "pay_x", transaction: `0x${"1".repeat(64)}` },
  "settings.update": { explorerTxUrls: {}, ethUsd: null },
  "catalog.updatePrice": { meterId: "mtr_x", amountUsd: "1" },
  "catalog.createPlan": { ...PLAN_TERMS, slug: "x" },
  "catalog.updatePlan": { ...PLAN_TERMS, planId: "pln_x" },
  "catalog.retirePlan": { planId: "pln_x" },
  "catalog.updateMeter": { meterId: "mtr_x", title: "x", includedUnits: 0 },
  "identity.addProvider": { issuer: "https://x.test", jwksUri: "https://x.test/jwks" },
  "identity.setProviderEnabled": { id: "tip_x", enabled: false },
  "identity.removeProvider": { id: "tip_x" },
  "payments.list": {},
  "webhooks.createEndpoint": { url: "https://x.example.com/" },
  "webhooks.updateEndpoint": { id: "whe_x", enabled: false },
  "webhooks.rotateSecret": { id: "whe_x" },
  "webhooks.deleteEndpoint": { id: "whe_x" },
  "webhooks.deliveries": { endpointId: "whe_x" },
  "webhooks.delivery": { id: "whd_x" },
  "webhooks.resend": { id: "whd_x" },
  "webhooks.setCreditThreshold": { planId: "pln_x", thresholdUsd: null },
  "payments.summary": {},
  "catalog.previewPrice": { meterId: "mtr_x", amountUsd: "1" },
  "catalog.previewPlan": { ...PLAN_TERMS, planId: "pln_x" },
  "search.global": { q: "x" },
  "customers.planBuyers": { planId: "pln_x" },
  "customers.customer": { id: "0x1111111111111111111111111111111111111111" },
  "team.invite": { email: "x@x.test", role: "viewer" },
  "team.setRole": { userId: "usr_x", role: "viewer" },
  "settings.updateMerchant": { contactEmail: null, termsText: null, refundPolicy: null },
  "settings.updateUnsettledCap": { capUsd: null },
  "settings.updateCreditLease": { calls: null, seconds: null },
  "settings.updatePayoutAddress": { address: "0x71bE63f3384f5fb98995898A86B02Fb2426c5788", password: "x" },
  "twoStep.enable": { code: "000000", password: "x" },
  "twoStep.disable": { code: "000000" },
  "twoStep.regenerateRecoveryCodes": { code: "000000", password: "x" },
};

const procedures = Object.keys(appRouter._def.procedures);

function invoke(caller: Caller, path: string, input: unknown): Promise<unknown> {
  const [ns, name] = path.split(".") as [string, string];
  return (caller as unknown as Record<string, Record<string, (i: unknown) => Promise<unknown>>>)[ns]![name]!(input);
}

describe("console procedures are scoped to the signed-in seller", () => {
  it("the table names every procedure of the router", () => {
    expect(procedures.filter((p) => !(p in ISOLATION))).toEqual([]);
  });

  for (const path of Object.keys(ISOLATION)) {
    it(`${path}: another seller reads and changes nothing of the first seller's`, async () => {
      await ISOLATION[path]!();
    });
  }

  it("every procedure refuses a caller without a seller session", async () => {
    for (const caller of [createCaller({ session: null }), createCaller(sessionFor("hum_1", a.sellerId, "human"))])
      for (const path of procedures) await expect(invoke(caller, path, INPUT[path]), path).rejects.toMatchObject({ code: "UNAUTHORIZED" });
  });
});
