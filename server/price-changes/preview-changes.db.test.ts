// What the console shows before a price or plan change goes live: the last 30 days at each price and the rails gained
// or lost (the registry's discovery offers: card from $0.50), and a plan's terms before and after with the credit
// already bought; a preview changes nothing.
import { randomBytes } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { seedMarketSeller } from "../../prisma/seed";
import { db } from "../db/client";
import { newId } from "../lib/ids";
import { previewMeterPrice } from "./change-meter-price";
import { previewPlanChange } from "../catalog/manage-plans";

let seller: { sellerId: string; userId: string };
const meterId = async (key: string) => (await db.meter.findFirstOrThrow({ where: { sellerId: seller.sellerId, key } })).id;

async function ledger(op: string, kind: "charge" | "draw" | "refund", micros: bigint, daysAgo: number) {
  const id = newId("pay");
  const at = new Date(Date.now() - daysAgo * 86_400_000);
  await db.payment.create({
    data: {
      id,
      sellerId: seller.sellerId,
      status: kind === "refund" ? "refunded" : "consumed",
      rail: kind === "draw" ? "credits" : "x402",
      method: "GET",
      path: `/api/v1/${op}`,
      query: "",
      operationKey: op,
      meterKey: op,
      amountMicros: micros,
      expiresAt: at,
      createdAt: at,
    },
  });
  await db.ledgerEntry.create({
    data: { id: newId("led"), sellerId: seller.sellerId, paymentId: id, kind, operationKey: op, units: 1, amountMicros: micros, createdAt: at },
  });
  if (kind === "refund")
    await db.ledgerEntry.create({
      data: { id: newId("led"), sellerId: seller.sellerId, paymentId: id, kind: "charge", operationKey: op, units: 1, amountMicros: micros, createdAt: at },
    });
}

beforeAll(async () => {
  const tag = randomBytes(4).toString("hex");
  seller = await seedMarketSeller(db, {
    slug: `pv-${tag}`,
    name: "Preview",
    hosts: [`pv-${tag}.test`],
    email: `pv-${tag}@pv.test`,
    password: "pw-123456",
    payTo: null,
    signingSecret: null,
  });
  // aggregates: three calls at $0.02 (one refunded), one at $0.03 a while ago, a draw on credit, one call too old to count.
  for (let i = 0; i < 2; i++) await ledger("aggregates", "charge", 20_000n, 1 + i);
  await ledger("aggregates", "refund", 20_000n, 3);
  await ledger("aggregates", "charge", 30_000n, 20);
  await ledger("aggregates", "draw", 20_000n, 2);
  await ledger("aggregates", "charge", 20_000n, 45);
});

describe("a price change's preview", () => {
  it("shows the last 30 days at each price, the same calls at the new price, and no rail lost under $0.50", async () => {
    const p = await previewMeterPrice({ sellerId: seller.sellerId, meterId: await meterId("aggregates"), amountUsd: "0.015" });
    expect(p).toMatchObject({ meter: { key: "aggregates", operations: ["aggregates"] }, beforeUsd: "0.020000", afterUsd: "0.015000", unchanged: false });
    expect(p.last30Days.byPrice).toEqual([
      { priceUsd: "0.030000", calls: 1, draws: 0, revenueUsd: "0.030000", drawnUsd: "0.000000", current: false },
      { priceUsd: "0.020000", calls: 3, draws: 1, revenueUsd: "0.040000", drawnUsd: "0.020000", current: true },
    ]);
    expect(p.last30Days.atNewPrice).toEqual({ calls: 3, revenueUsd: "0.045000" });
    expect(p.rails.before.map((r) => r.rail)).toEqual(["x402", "mpp"]);
    expect(p.rails).toMatchObject({ gained: [], lost: [] });
  });

  it("a backtest priced under $0.50 loses the card rail; a call priced up to $0.50 gains it", async () => {
    const down = await previewMeterPrice({ sellerId: seller.sellerId, meterId: await meterId("backtest"), amountUsd: "0.49" });
    expect(down.rails).toMatchObject({ lost: ["card"], gained: [] });
    expect(down.last30Days).toEqual({ byPrice: [], atNewPrice: null });
    const up = await previewMeterPrice({ sellerId: seller.sellerId, meterId: await meterId("aggregates"), amountUsd: "0.50" });
    expect(up.rails).toMatchObject({ gained: ["card"], lost: [] });
    expect(up.rails.after.find((r) => r.rail === "card")!.methods).toEqual(["stripe"]);
  });

  it("changes nothing, refuses a bad price as the change would, and never reaches another seller's meter", async () => {
    const audits = await db.auditLog.count({ where: { sellerId: seller.sellerId } });
    await previewMeterPrice({ sellerId: seller.sellerId, meterId: await meterId("basis"), amountUsd: "9" });
    expect(await db.auditLog.count({ where: { sellerId: seller.sellerId } })).toBe(audits);
    expect((await db.price.findFirstOrThrow({ where: { meterId: await meterId("basis") } })).amountMicros).toBe(50_000n);
    await expect(previewMeterPrice({ sellerId: seller.sellerId, meterId: await meterId("basis"), amountUsd: "abc" })).rejects.toMatchObject({
      code: "invalid_request",
    });
    const tag = randomBytes(4).toString("hex");
    const o = await seedMarketSeller(db, {
      slug: `pv-o-${tag}`,
      name: "Other",
      hosts: [`pv-o-${tag}.test`],
      email: `pv-o-${tag}@pv.test`,
      password: "pw-123456",
      payTo: null,
      signingSecret: null,
    });
    const other = await db.meter.findFirstOrThrow({ where: { sellerId: o.sellerId, key: "basis" } });
    await expect(previewMeterPrice({ sellerId: seller.sellerId, meterId: other.id, amountUsd: "1" })).rejects.toMatchObject({ code: "not_found" });
  });
});

describe("a plan change's preview", () => {
  const terms = { name: "Research credits", minimumUsd: "5.00", maximumUsd: "500.00", cardMinimumUsd: "0.50", creditValidityDays: 365 };

  it("lists each term before and after, and refuses up front to take a meter from live credit", async () => {
    const plan = await db.plan.findFirstOrThrow({
      where: { sellerId: seller.sellerId, slug: "research-credits" },
      include: { meters: { include: { meter: true } } },
    });
    const meters = plan.meters.map((m) => m.meter.key);
    const actor = { sellerId: seller.sellerId, actorId: seller.userId };
    const same = await previewPlanChange(actor, plan.id, {
      ...terms,
      name: plan.name,
      description: plan.description,
      creditValidityDays: plan.creditValidityDays,
      meters,
    });
    expect(same.changes).toEqual([]);
    const p = await previewPlanChange(actor, plan.id, {
      ...terms,
      name: plan.name,
      description: plan.description,
      maximumUsd: "750.00",
      meters: meters.slice(1),
    });
    expect(p.changes).toEqual(expect.arrayContaining([{ field: "maximumUsd", label: "Maximum purchase", before: "$500.00", after: "$750.00" }]));
    expect(p).toMatchObject({ metersRemoved: [meters[0]], liveCreditUsd: "0.000000", blocked: null });
    // Live credit on the plan: the same change would be refused, and the preview says so.
    const payment = newId("pay");
    await db.payment.create({
      data: {
        id: payment,
        sellerId: seller.sellerId,
        status: "consumed",
        rail: "x402",
        method: "POST",
        path: "/plans",
        query: "",
        operationKey: "plan_purchase",
        amountMicros: 5_000_000n,
        expiresAt: new Date(),
      },
    });
    const cred = newId("agt");
    await db.agentCredential.create({ data: { id: cred, sellerId: seller.sellerId, kind: "anonymous", status: "unclaimed" } });
    await db.creditGrant.create({
      data: {
        id: newId("grt"),
        sellerId: seller.sellerId,
        planId: plan.id,
        credentialId: cred,
        sourcePaymentId: payment,
        amountMicros: 5_000_000n,
        remainingMicros: 5_000_000n,
        expiresAt: new Date("2099-01-01"),
      },
    });
    const blocked = await previewPlanChange(actor, plan.id, { ...terms, name: plan.name, description: plan.description, meters: meters.slice(1) });
    expect(blocked).toMatchObject({ liveCreditUsd: "5.000000", holders: 1, blocked: expect.stringContaining(meters[0]!) });
    await expect(previewPlanChange({ sellerId: "sel_nobody", actorId: null }, plan.id, { ...terms, meters })).rejects.toMatchObject({ code: "plan_not_found" });
  });
});
