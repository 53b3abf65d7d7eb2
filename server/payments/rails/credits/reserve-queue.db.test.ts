// Batched reservations (reserve-queue.ts, reserve-batch.queries.ts) against real PostgreSQL, with real concurrency:
// calls arriving while a statement is in flight share the next one, and each still gets the outcome a draw of its own
// would give (never below zero, spanning grants, the credit running out mid-batch, a revoked credential refused).
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "../../../db/client";
import { newId } from "../../../lib/ids";
import { createGatewaySeller } from "../../../testing/gateway";
import { registerAnonymous, routedStore } from "../../../testing/identity-harness";
import { releaseDraw, type DrawRequest, type DrawResult } from "./credits.queries";
import { reserveBatchStats, reserveDrawBatched } from "./reserve-queue";

let sellerId: string;
let planId: string;
let store: ReturnType<typeof routedStore>;
const PRICE = 20_000n;

beforeAll(async () => {
  const seller = await createGatewaySeller("http://127.0.0.1:9", {});
  sellerId = seller.sellerId;
  store = routedStore(seller.host);
  planId = (await db.plan.findFirstOrThrow({ where: { sellerId, slug: "research-credits" } })).id;
}, 60_000);

/** A grant of `micros` for the credential, as a purchase leaves it (its source payment settled), expiring in `days`. */
async function grant(credentialId: string, micros: bigint, days: number): Promise<string> {
  const source = await db.payment.create({
    data: {
      id: newId("pay"),
      sellerId,
      status: "settled",
      rail: "x402",
      method: "POST",
      path: `/plans/${planId}/purchase`,
      query: "",
      operationKey: "plan_purchase",
      amountMicros: micros,
      expiresAt: new Date(Date.now() + 86_400_000),
    },
  });
  const g = await db.creditGrant.create({
    data: {
      id: newId("grt"),
      sellerId,
      planId,
      credentialId,
      sourcePaymentId: source.id,
      amountMicros: micros,
      remainingMicros: micros,
      expiresAt: new Date(Date.now() + days * 86_400_000),
    },
  });
  return g.id;
}

function draw(credentialId: string, meterKey = "aggregates", priceMicros = PRICE): DrawRequest {
  return {
    paymentId: newId("pay"),
    sellerId,
    credentialId,
    humanId: null,
    method: "GET",
    path: meterKey === "aggregates" ? "/api/v1/aggregates/AAPL" : "/api/v1/basis/BTC",
    query: "",
    operationKey: meterKey,
    meterKey,
    priceMicros,
    includedUnits: 0,
    leaseSeconds: 60,
  };
}

const balances = async (ids: string[]) =>
  (await db.creditGrant.findMany({ where: { id: { in: ids } }, orderBy: { expiresAt: "asc" } })).map((g) => g.remainingMicros);

describe("batched reservations", () => {
  it("200 parallel calls on credit for 150 (three grants, none a whole number of calls): 150 reserved, balance exactly zero", async () => {
    const agent = await registerAnonymous(store);
    const grants = [
      await grant(agent.credentialId, 1_010_000n, 10),
      await grant(agent.credentialId, 990_000n, 20),
      await grant(agent.credentialId, 1_000_000n, 30),
    ];
    const before = { ...reserveBatchStats };
    const results = await Promise.all(Array.from({ length: 200 }, () => reserveDrawBatched(draw(agent.credentialId))));
    const reserved = results.filter((r): r is Extract<DrawResult, { type: "reserved"; source: "credit" }> => r.type === "reserved" && r.source === "credit");
    expect(reserved).toHaveLength(150);
    expect(results.filter((r) => r.type === "uncovered")).toHaveLength(50);
    // Batched: far fewer statements than calls.
    expect(reserveBatchStats.calls - before.calls).toBe(200);
    expect(reserveBatchStats.statements - before.statements).toBeLessThan(50);
    // Every balance a call was told is the one it left, as if the calls had run one after another.
    expect(reserved.map((r) => r.remainingMicros).sort((a, b) => (a < b ? -1 : 1))).toEqual(Array.from({ length: 150 }, (_, i) => BigInt(i) * PRICE));
    expect(await balances(grants)).toEqual([0n, 0n, 0n]);
    // Each draw took its price from the grants in expiry order, and the parts add up to what each grant held.
    const payments = await db.payment.findMany({ where: { credentialId: agent.credentialId, rail: "credits" } });
    expect(payments).toHaveLength(150);
    const taken = new Map<string, bigint>();
    for (const p of payments) {
      const parts = (p.railData as { source: string; grants: { id: string; amount: string }[] }).grants;
      expect(p.amountMicros).toBe(PRICE);
      expect(parts.reduce((s, x) => s + BigInt(x.amount), 0n)).toBe(PRICE);
      for (const x of parts) taken.set(x.id, (taken.get(x.id) ?? 0n) + BigInt(x.amount));
    }
    expect(grants.map((g) => taken.get(g))).toEqual([1_010_000n, 990_000n, 1_000_000n]);
    // Released, every part goes back where it came from.
    await Promise.all(reserved.map((r) => releaseDraw(r.paymentId, "upstream_error")));
    expect(await balances(grants)).toEqual([1_010_000n, 990_000n, 1_000_000n]);
  }, 60_000);

  it("a batch mixing two credentials, one revoked while it waits: the revoked one's calls are refused, the other's served", async () => {
    const a = await registerAnonymous(store);
    const b = await registerAnonymous(store);
    const grantA = await grant(a.credentialId, 10_000_000n, 10);
    const grantB = await grant(b.credentialId, 10_000_000n, 10);
    // The first call is in flight, held on B's grant lock; the forty after it queue for the next statement.
    let first: Promise<DrawResult> | undefined;
    let queued: Promise<DrawResult[]> | undefined;
    const before = { ...reserveBatchStats };
    await db.$transaction(async (tx) => {
      await tx.$queryRaw`select id from credit_grants where id = ${grantB} for update`;
      first = reserveDrawBatched(draw(b.credentialId));
      queued = Promise.all(Array.from({ length: 40 }, (_, i) => reserveDrawBatched(draw(i % 2 ? a.credentialId : b.credentialId))));
      for (let i = 0; i < 200; i++) {
        const waiting = await db.$queryRaw<{ n: number }[]>`select count(*)::int as n from pg_locks where not granted and locktype = 'transactionid'`;
        if (waiting[0]!.n > 0) break;
        await new Promise((r) => setTimeout(r, 10));
      }
      await db.agentCredential.update({ where: { id: a.credentialId }, data: { revokedAt: new Date() } });
    });
    expect(await first).toMatchObject({ type: "reserved" });
    const results = await queued!;
    expect(reserveBatchStats.statements - before.statements).toBe(2);
    expect(results.filter((_, i) => i % 2 === 1).every((r) => r.type === "credential_invalid")).toBe(true);
    expect(results.filter((_, i) => i % 2 === 0).every((r) => r.type === "reserved")).toBe(true);
    expect(await balances([grantA])).toEqual([10_000_000n]);
    expect(await balances([grantB])).toEqual([10_000_000n - 21n * PRICE]);
  }, 60_000);

  it("revocation is immediate under load: no call of a credential reserves once its revocation has committed", async () => {
    const a = await registerAnonymous(store);
    const b = await registerAnonymous(store);
    await grant(a.credentialId, 100_000_000n, 10);
    await grant(b.credentialId, 100_000_000n, 10);
    let revokedAt = 0;
    const calls: Promise<{ cred: "a" | "b"; sent: number; r: DrawResult }>[] = [];
    for (let wave = 0; wave < 20; wave++) {
      if (wave === 10) {
        await db.agentCredential.update({ where: { id: a.credentialId }, data: { revokedAt: new Date() } });
        revokedAt = performance.now();
      }
      for (let i = 0; i < 20; i++) {
        const cred = i % 2 ? "a" : "b";
        const sent = performance.now();
        calls.push(reserveDrawBatched(draw(cred === "a" ? a.credentialId : b.credentialId)).then((r) => ({ cred, sent, r })));
      }
      await new Promise((r) => setImmediate(r));
    }
    const done = await Promise.all(calls);
    expect(done.filter((c) => c.cred === "b").every((c) => c.r.type === "reserved")).toBe(true);
    expect(done.filter((c) => c.cred === "a" && c.sent > revokedAt).every((c) => c.r.type === "credential_invalid")).toBe(true);
    expect(done.filter((c) => c.cred === "a" && c.sent > revokedAt)).toHaveLength(100);
  }, 60_000);

  it("two meters drawing on the same grants at once (two pools sharing a grant) reserve alone, and never overspend", async () => {
    const agent = await registerAnonymous(store);
    const grants = [await grant(agent.credentialId, 510_000n, 10), await grant(agent.credentialId, 500_000n, 20)];
    // 25 aggregates calls at $0.02 and 25 basis calls at $0.05 against $1.01: whatever the order, never below zero.
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) => reserveDrawBatched(i % 2 ? draw(agent.credentialId, "basis", 50_000n) : draw(agent.credentialId))),
    );
    const spent = results.reduce((s, r, i) => s + (r.type === "reserved" ? (i % 2 ? 50_000n : PRICE) : 0n), 0n);
    const left = (await balances(grants)).reduce((s, x) => s + x, 0n);
    expect(spent + left).toBe(1_010_000n);
    expect(left).toBeGreaterThanOrEqual(0n);
    expect((await balances(grants)).every((x) => x >= 0n)).toBe(true);
  }, 60_000);
});
