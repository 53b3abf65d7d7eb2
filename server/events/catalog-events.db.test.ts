// Claims, prices and plans changed: events written by the database in the change's transaction (through the console's
// own functions and the claim ceremony here), each object as the API shows it (the entitlements `agent` block, the
// manifest's meter and plan). Events are append-only.
import { beforeAll, describe, expect, it } from "vitest";
import { seedMarketSeller } from "../../prisma/seed";
import { getCatalog } from "../catalog/catalog";
import { buildManifest } from "../discovery/manifest";
import { invalidateSeller, resolveSeller } from "../catalog/resolve-seller";
import { EVENTS, type EventType } from "../contracts/events";
import { db } from "../db/client";
import { newId } from "../lib/ids";
import { claimCredential, getJson, makeStore, registerAnonymous } from "../testing/identity-harness";
import { createCaller, sessionFor } from "../testing/trpc";
import { renderEvent } from "./render-event";

let store: Awaited<ReturnType<typeof makeStore>>;
let caller: ReturnType<typeof createCaller>;
const ORIGIN = "https://store.test";

beforeAll(async () => {
  store = await makeStore("events");
  const user = await db.sellerUser.findFirstOrThrow({ where: { sellerId: store.sellerId } });
  caller = createCaller(sessionFor(user.id, store.sellerId));
});

async function events(type: string) {
  const rows = await db.event.findMany({ where: { sellerId: store.sellerId, type }, orderBy: { seq: "asc" } });
  return rows.map((r) => {
    const e = renderEvent(r, ORIGIN);
    expect(EVENTS[e.type as EventType].data.safeParse(e.data).error).toBeUndefined();
    return e;
  });
}

async function manifest() {
  invalidateSeller(store.sellerId);
  return buildManifest(await getCatalog(await resolveSeller(store.host)), ORIGIN);
}

describe("claim events", () => {
  it("a completed claim emits claim.completed with the credential as entitlements shows it", async () => {
    const agent = await registerAnonymous(store);
    expect(await events("claim.completed")).toEqual([]);
    const { humanId, token } = await claimCredential(store, agent.claimToken, `claimer-${newId("tst").slice(4, 10)}@people.test`);
    const evs = await events("claim.completed");
    expect(evs).toHaveLength(1);
    const ent = await getJson(store, "/agent/entitlements", { authorization: `Bearer ${token}` });
    expect(evs[0]!.data).toEqual({ object: ent.body.agent, via: "claim", claimed_at: expect.stringMatching(/Z$/) });
    expect(evs[0]!.data.object).toMatchObject({ id: agent.credentialId, claimed: true, human: { id: humanId } });
  });

  it("a credential born claimed (an ID-JAG registration) emits it too", async () => {
    const human = await db.human.create({ data: { id: newId("hum"), email: `born-${newId("tst").slice(4, 10)}@people.test` } });
    const id = newId("agt");
    await db.agentCredential.create({
      data: { id, sellerId: store.sellerId, kind: "identity_assertion", status: "claimed", humanId: human.id, claimedAt: new Date() },
    });
    expect((await events("claim.completed")).find((e) => (e.data.object as { id: string }).id === id)!.data).toMatchObject({
      via: "identity_assertion",
      object: { id, type: "identity_assertion", claimed: true, human: { id: human.id, email: human.email } },
    });
  });
});

describe("catalog events", () => {
  it("a price change emits price.updated: the manifest's meter, and the price before", async () => {
    const meter = (await caller.catalog.overview()).meters.find((m) => m.key === "aggregates")!;
    await caller.catalog.updatePrice({ meterId: meter.id, amountUsd: "0.03" });
    const evs = await events("price.updated");
    const m = (await manifest()).meters.find((x) => x.key === "aggregates");
    expect(evs.at(-1)!.data).toEqual({ object: m, previous: { priceUsd: "0.020000" } });
    await caller.catalog.updateMeter({ meterId: meter.id, title: meter.title, includedUnits: 5 });
    expect((await events("price.updated")).at(-1)!.data).toEqual({ object: { ...m, includedUnits: 5 }, previous: { includedUnits: 0 } });
  });

  it("plans created, changed and retired: the manifest's plan, with its state", async () => {
    const terms = { name: "Evt pass", minimumUsd: "1.00", maximumUsd: "9.00", cardMinimumUsd: "1.00", creditValidityDays: 30, meters: ["aggregates"] };
    const { planId } = await caller.catalog.createPlan({ ...terms, slug: "evt-pass" });
    const made = (await events("plan.created")).filter((e) => (e.data.object as { id: string }).id === planId);
    expect(made).toHaveLength(1);
    const listed = (await manifest()).plans.find((p) => p.id === planId)!;
    expect(made[0]!.data.object).toEqual({ ...listed, status: "live" });
    await caller.catalog.updatePlan({ ...terms, planId, name: "Evt pass 2", maximumUsd: "19.00" });
    expect((await events("plan.updated")).at(-1)!.data.object).toMatchObject({ id: planId, name: "Evt pass 2", purchase: { maximumUsd: "19.00" } });
    await caller.catalog.retirePlan({ planId });
    expect((await events("plan.retired")).at(-1)!.data.object).toMatchObject({ id: planId, status: "retired" });
  });

  it("one event per plan change: creating writes plan.created only, a change of meters alone is plan.updated, unchanged terms nothing", async () => {
    const terms = { name: "Meters pass", minimumUsd: "1.00", maximumUsd: "9.00", cardMinimumUsd: "1.00", creditValidityDays: 30, meters: ["aggregates"] };
    const { planId } = await caller.catalog.createPlan({ ...terms, slug: "meters-pass" });
    const about = async () => (await db.event.findMany({ where: { subjectId: planId }, orderBy: { seq: "asc" } })).map((e) => e.type);
    expect(await about()).toEqual(["plan.created"]);
    await caller.catalog.updatePlan({ ...terms, planId, meters: ["aggregates", "basis"] });
    expect(await about()).toEqual(["plan.created", "plan.updated"]);
    expect((await events("plan.updated")).at(-1)!.data.object).toMatchObject({ id: planId, meters: ["aggregates", "basis"] });
    await caller.catalog.updatePlan({ ...terms, planId, meters: ["aggregates", "basis"] });
    expect(await about()).toEqual(["plan.created", "plan.updated"]);
  });

  it("re-seeding a storefront (the demo's start) records nothing", async () => {
    const before = await db.event.count({ where: { sellerId: store.sellerId } });
    const seller = await db.seller.findUniqueOrThrow({ where: { id: store.sellerId } });
    const user = await db.sellerUser.findFirstOrThrow({ where: { sellerId: store.sellerId } });
    await seedMarketSeller(db, {
      slug: seller.slug,
      name: seller.name,
      hosts: [store.host],
      email: user.email,
      password: "pw-12345678",
      payTo: seller.payToAddress,
      signingSecret: seller.signingSecret,
    });
    expect(await db.event.count({ where: { sellerId: store.sellerId } })).toBe(before);
  });
});

describe("the events table", () => {
  it("is append-only: an event cannot be changed", async () => {
    const e = await db.event.findFirstOrThrow({ where: { sellerId: store.sellerId } });
    await expect(db.event.update({ where: { id: e.id }, data: { type: "payment.settled" } })).rejects.toThrow(/append-only/);
  });
});
