// A seller's plan and meter changes from the console (manage-plans.ts), against real PostgreSQL: each change is one
// transaction with its audit row and catalog version bump (an audit write that fails takes the change back with it),
// concurrent creates of one slug give one plan and clean conflicts, concurrent edits of one plan apply one after the
// other (each audit row's before is the previous one's after), a retired plan's terms are final, and /manifest.json
// and /openapi.json show every change on the next call.
import { describe, expect, it } from "vitest";
import * as manifestRoute from "../../app/manifest.json/route";
import * as openapiRoute from "../../app/openapi.json/route";
import { seedMarketSeller } from "../../prisma/seed";
import { db } from "../db/client";
import { newId } from "../lib/ids";
import { createPlan, retirePlan, updateMeter, updatePlan } from "./manage-plans";

const TERMS = {
  name: "Rates pass",
  description: "Treasury rates",
  minimumUsd: "2.00",
  maximumUsd: "20.00",
  cardMinimumUsd: "2.00",
  creditValidityDays: 30,
  meters: ["avg_interest_rates"],
};

type Seller = { sellerId: string; userId: string; host: string };

async function seller(label: string): Promise<Seller> {
  const tag = newId("tst").slice(4, 12);
  const host = `${label}-${tag}.test`;
  const s = await seedMarketSeller(db, {
    slug: `${label}-${tag}`,
    name: `Plans ${label}`,
    hosts: [host],
    email: `${label}-${tag}@plans.test`,
    password: "pw-123456",
    payTo: null,
    signingSecret: null,
  });
  return { ...s, host };
}

const actor = (s: Seller) => ({ sellerId: s.sellerId, actorId: s.userId });
/** A seller user id that does not exist: the audit row's foreign key to seller_users refuses it, so the audit insert fails. */
const ghost = (s: Seller) => ({ sellerId: s.sellerId, actorId: newId("usr") });

const version = async (s: Seller) => (await db.seller.findUniqueOrThrow({ where: { id: s.sellerId } })).catalogVersion;
const audits = (s: Seller, targetId?: string) =>
  db.auditLog.findMany({ where: { sellerId: s.sellerId, ...(targetId ? { targetId } : {}) }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
const planRow = (id: string) => db.plan.findUniqueOrThrow({ where: { id }, include: { meters: { include: { meter: { select: { key: true } } } } } });
const meterKeysOf = async (id: string) => (await planRow(id)).meters.map((m) => m.meter.key).sort();

type Handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;
async function getJson(handler: Handler, s: Seller, path: string) {
  const res = await handler(new Request(`http://${s.host}${path}`, { headers: { host: s.host } }), { params: Promise.resolve({}) });
  expect(res.status).toBe(200);
  return res.json();
}
type Listed = { id: string; slug: string; name: string; meters: string[]; purchase?: { maximumUsd: string }; maximumUsd?: string };
const manifestPlan = async (s: Seller, id: string): Promise<Listed | undefined> =>
  ((await getJson(manifestRoute.GET as Handler, s, "/manifest.json")).plans as Listed[]).find((p) => p.id === id);
const openapiPlan = async (s: Seller, id: string): Promise<Listed | undefined> => {
  const doc = await getJson(openapiRoute.GET as Handler, s, "/openapi.json?path=/plans/{planId}/purchase");
  return (doc.paths["/plans/{planId}/purchase"].post["x-plans"] as Listed[]).find((p) => p.id === id);
};

/**
 * Follows plan.update audit rows from `start` (the created state): exactly one edit must have applied on each state
 * (its before is the previous after: none lost, none applied on a stale read). The state the last edit left.
 */
function chainEnd(start: unknown, updates: { before: unknown; after: unknown }[]): unknown {
  let state = start;
  const left = [...updates];
  while (left.length) {
    const next = left.filter((u) => JSON.stringify(u.before) === JSON.stringify(state));
    expect(next, `one edit applied on ${JSON.stringify(state)}`).toHaveLength(1);
    state = next[0]!.after;
    left.splice(left.indexOf(next[0]!), 1);
  }
  return state;
}

/** Settles every promise; each outcome is the value or the AppError code it was refused with. */
async function outcomes<T>(ps: Promise<T>[]): Promise<({ ok: T } | { code: string })[]> {
  return (await Promise.allSettled(ps)).map((r) =>
    r.status === "fulfilled" ? { ok: r.value } : { code: (r.reason as { code?: string }).code ?? String(r.reason) },
  );
}

describe("an audit write that fails takes the whole change back", () => {
  it("create: no plan, no meter links, no version bump", async () => {
    const s = await seller("rb-create");
    const v = await version(s);
    await expect(createPlan(ghost(s), { ...TERMS, slug: "never" })).rejects.toMatchObject({ code: "P2003" });
    expect(await db.plan.findUnique({ where: { sellerId_slug: { sellerId: s.sellerId, slug: "never" } } })).toBeNull();
    expect(await db.planMeter.count({ where: { plan: { sellerId: s.sellerId, slug: "never" } } })).toBe(0);
    expect(await version(s)).toBe(v);
    expect(await audits(s)).toEqual([]);
    // The slug is still free: the same create by a real seller user succeeds.
    await expect(createPlan(actor(s), { ...TERMS, slug: "never" })).resolves.toMatchObject({ planId: expect.stringMatching(/^pln/) });
  });

  it("update: the terms and the meter links are as they were, no version bump", async () => {
    const s = await seller("rb-update");
    const { planId } = await createPlan(actor(s), { ...TERMS, slug: "kept" });
    const before = await planRow(planId);
    const v = await version(s);
    await expect(updatePlan(ghost(s), planId, { ...TERMS, name: "Changed", maximumUsd: "90.00", meters: ["aggregates"] })).rejects.toMatchObject({
      code: "P2003",
    });
    expect(await planRow(planId)).toEqual(before);
    expect(await meterKeysOf(planId)).toEqual(["avg_interest_rates"]);
    expect(await version(s)).toBe(v);
    expect((await audits(s, planId)).map((a) => a.action)).toEqual(["plan.create"]);
  });

  it("retire: still live and still sold, no version bump", async () => {
    const s = await seller("rb-retire");
    const { planId } = await createPlan(actor(s), { ...TERMS, slug: "stays" });
    const v = await version(s);
    await expect(retirePlan(ghost(s), planId)).rejects.toMatchObject({ code: "P2003" });
    expect((await planRow(planId)).status).toBe("live");
    expect(await version(s)).toBe(v);
    expect((await audits(s, planId)).map((a) => a.action)).toEqual(["plan.create"]);
    expect(await manifestPlan(s, planId)).toBeDefined();
  });

  it("updateMeter: title and included units unchanged, no version bump", async () => {
    const s = await seller("rb-meter");
    const meter = await db.meter.findFirstOrThrow({ where: { sellerId: s.sellerId, key: "aggregates" } });
    const v = await version(s);
    await expect(updateMeter(ghost(s), { meterId: meter.id, title: "Renamed", includedUnits: 7 })).rejects.toMatchObject({ code: "P2003" });
    expect(await db.meter.findUniqueOrThrow({ where: { id: meter.id } })).toEqual(meter);
    expect(await version(s)).toBe(v);
    expect(await audits(s)).toEqual([]);
  });
});

describe("concurrent changes", () => {
  it("12 creates of one slug at once: one plan, 11 catalog_conflict, one audit row, one version bump", async () => {
    const s = await seller("race-create");
    const v = await version(s);
    const res = await outcomes(Array.from({ length: 12 }, (_, i) => createPlan(actor(s), { ...TERMS, name: `Racer ${i}`, slug: "contested" })));
    const won = res.filter((r): r is { ok: { planId: string } } => "ok" in r);
    expect(won).toHaveLength(1);
    expect(res.filter((r) => "code" in r)).toEqual(Array.from({ length: 11 }, () => ({ code: "catalog_conflict" })));
    const plans = await db.plan.findMany({ where: { sellerId: s.sellerId, slug: "contested" } });
    expect(plans.map((p) => p.id)).toEqual([won[0]!.ok.planId]);
    expect(await meterKeysOf(won[0]!.ok.planId)).toEqual(["avg_interest_rates"]);
    const rows = await audits(s);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ action: "plan.create", targetId: won[0]!.ok.planId, after: { slug: "contested", name: plans[0]!.name } });
    expect(await version(s)).toBe(v + 1);
  });

  it("10 edits of one plan at once: each applies on the one before (the audit rows chain), one version bump each", async () => {
    const s = await seller("race-edit");
    const { planId } = await createPlan(actor(s), { ...TERMS, slug: "edited" });
    const v = await version(s);
    const res = await outcomes(
      Array.from({ length: 10 }, (_, i) =>
        updatePlan(actor(s), planId, {
          ...TERMS,
          name: `Edit ${i}`,
          maximumUsd: `${30 + i}.00`,
          meters: i % 2 ? ["avg_interest_rates", "aggregates"] : ["aggregates"],
        }),
      ),
    );
    expect(res.every((r) => ("ok" in r && r.ok.planId === planId) || ("code" in r && r.code === "catalog_conflict"))).toBe(true);
    const succeeded = res.filter((r) => "ok" in r).length;
    const [created, ...updates] = await audits(s, planId);
    expect(created!.action).toBe("plan.create");
    expect(updates).toHaveLength(succeeded);
    expect(updates.every((u) => u.action === "plan.update")).toBe(true);
    const now = await planRow(planId);
    expect(chainEnd(created!.after, updates)).toMatchObject({
      name: now.name,
      maximumMicros: now.maximumMicros!.toString(),
      meters: now.meters
        .map((m) => m.meter.key)
        .sort()
        .join(","),
    });
    expect(await version(s)).toBe(v + succeeded);
  });

  it("edits racing a retire: those after it are catalog_conflict, and the terms are those of the last edit before it", async () => {
    const s = await seller("race-retire");
    const { planId } = await createPlan(actor(s), { ...TERMS, slug: "retiring" });
    const v = await version(s);
    const edits = Array.from({ length: 10 }, (_, i) => updatePlan(actor(s), planId, { ...TERMS, name: `Edit ${i}` }));
    const [retired, ...res] = await outcomes([retirePlan(actor(s), planId), ...edits]);
    expect(retired).toEqual({ ok: { planId, alreadyRetired: false } });
    expect(res.every((r) => "ok" in r || r.code === "catalog_conflict")).toBe(true);
    const rows = await audits(s, planId);
    const updates = rows.filter((r) => r.action === "plan.update");
    expect(updates).toHaveLength(res.filter((r) => "ok" in r).length);
    expect(rows.filter((r) => r.action === "plan.retire")).toHaveLength(1);
    const now = await planRow(planId);
    expect(now.status).toBe("retired");
    expect(chainEnd(rows[0]!.after, updates)).toMatchObject({ name: now.name, status: "live" });
    expect(await version(s)).toBe(v + updates.length + 1);
  });
});

describe("a retired plan", () => {
  it("refuses edits with catalog_conflict and changes nothing; retiring again is a no-op", async () => {
    const s = await seller("retired");
    const { planId } = await createPlan(actor(s), { ...TERMS, slug: "done" });
    expect(await retirePlan(actor(s), planId)).toEqual({ planId, alreadyRetired: false });
    const before = await planRow(planId);
    const v = await version(s);
    await expect(updatePlan(actor(s), planId, { ...TERMS, name: "Revived", maximumUsd: "50.00" })).rejects.toMatchObject({
      code: "catalog_conflict",
      detail: expect.stringContaining("retired"),
    });
    expect(await planRow(planId)).toEqual(before);
    expect(await retirePlan(actor(s), planId)).toEqual({ planId, alreadyRetired: true });
    expect(await version(s)).toBe(v);
    expect((await audits(s, planId)).map((a) => a.action)).toEqual(["plan.create", "plan.retire"]);
  });
});

describe("discovery follows every change on the next call", () => {
  it("create, update and retire show in /manifest.json and /openapi.json; a meter's free units in both", async () => {
    const s = await seller("discovery");
    // Read once first, so both documents are cached at the old catalog version.
    expect(await manifestPlan(s, "pln_none")).toBeUndefined();
    expect(await openapiPlan(s, "pln_none")).toBeUndefined();

    const { planId } = await createPlan(actor(s), { ...TERMS, slug: "found" });
    expect(await manifestPlan(s, planId)).toMatchObject({
      slug: "found",
      name: "Rates pass",
      meters: ["avg_interest_rates"],
      purchase: { maximumUsd: "20.00" },
    });
    expect(await openapiPlan(s, planId)).toMatchObject({ slug: "found", name: "Rates pass", meters: ["avg_interest_rates"], maximumUsd: "20.00" });

    await updatePlan(actor(s), planId, { ...TERMS, name: "Rates pass plus", maximumUsd: "40.00", meters: ["aggregates", "avg_interest_rates"] });
    expect(await manifestPlan(s, planId)).toMatchObject({
      name: "Rates pass plus",
      meters: ["aggregates", "avg_interest_rates"],
      purchase: { maximumUsd: "40.00" },
    });
    expect(await openapiPlan(s, planId)).toMatchObject({ name: "Rates pass plus", meters: ["aggregates", "avg_interest_rates"], maximumUsd: "40.00" });

    await retirePlan(actor(s), planId);
    expect(await manifestPlan(s, planId)).toBeUndefined();
    expect(await openapiPlan(s, planId)).toBeUndefined();

    const meter = await db.meter.findFirstOrThrow({ where: { sellerId: s.sellerId, key: "aggregates" } });
    await updateMeter(actor(s), { meterId: meter.id, title: "Daily bars", includedUnits: 4 });
    const manifest = await getJson(manifestRoute.GET as Handler, s, "/manifest.json");
    expect(manifest.meters.find((m: { key: string }) => m.key === "aggregates")).toMatchObject({ title: "Daily bars", includedUnits: 4 });
    const doc = await getJson(openapiRoute.GET as Handler, s, "/openapi.json?path=/api/v1/aggregates/{ticker}");
    expect(doc.paths["/api/v1/aggregates/{ticker}"].get["x-payment-info"]).toMatchObject({ meter: "aggregates", includedUnits: 4 });
  });
});
