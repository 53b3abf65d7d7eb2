// The lease bounds from the console (settings.updateCreditLease), from both sides: an owner sets them and a settings
// row of words is audited; a viewer is refused (403) and writes nothing; a bound out of range is refused with what the
// range is; and an instance already running (a lease book listening, holding a lease) drops its lease at once and
// takes the next one on the new bounds.
import { beforeAll, describe, expect, it } from "vitest";
import { seedMarketSeller } from "../../../prisma/seed";
import { db } from "../../db/client";
import { newId } from "../../lib/ids";
import { LeaseBook } from "../../payments/rails/credits/lease-book";
import { listenForLeaseNotices } from "../../payments/rails/credits/leases.queries";
import { grantPlanCredit, registerAnonymous, routedStore } from "../../testing/identity-harness";
import { createCaller, sessionFor } from "../../testing/trpc";

const PRICE = 4_000n;
let s: { sellerId: string; userId: string; host: string };
let owner: ReturnType<typeof createCaller>;
let viewer: ReturnType<typeof createCaller>;
const stored = async () => {
  const r = await db.sellerSettings.findUnique({ where: { sellerId: s.sellerId } });
  return { calls: r?.creditLeaseCalls ?? null, ms: r?.creditLeaseMs ?? null };
};
const audits = () => db.auditLog.count({ where: { sellerId: s.sellerId, action: "settings.update" } });

beforeAll(async () => {
  const tag = newId("tst").slice(4, 12);
  const host = `lease-${tag}.test`;
  const seeded = await seedMarketSeller(db, {
    slug: `lease-${tag}`,
    name: "Lease",
    hosts: [host],
    email: `lease-${tag}@lease.test`,
    password: "pw-123456",
    payTo: null,
    signingSecret: null,
  });
  s = { ...seeded, host };
  owner = createCaller(sessionFor(s.userId, s.sellerId));
  const v = await db.sellerUser.create({
    data: { id: newId("usr"), sellerId: s.sellerId, email: `viewer-${tag}@lease.test`, name: "V", passwordHash: "x", role: "viewer" },
  });
  viewer = createCaller(sessionFor(v.id, s.sellerId));
}, 60_000);

describe("the lease bounds in the console", () => {
  it("an owner sets them, audited in words; empty goes back to the defaults", async () => {
    const before = (await owner.settings.get()).creditLease;
    expect(before).toMatchObject({ calls: null, ms: null, maxCalls: 1_000, minMs: 1_000, maxMs: 60_000 });
    expect(await owner.settings.updateCreditLease({ calls: "5", seconds: "2.5" })).toMatchObject({ calls: 5, ms: 2_500, on: true });
    expect(await stored()).toEqual({ calls: 5, ms: 2_500 });
    expect((await owner.settings.get()).creditLease).toMatchObject({ calls: 5, ms: 2_500, on: true });
    const [row] = (await owner.audit.list({ targetType: "seller_settings" })).entries;
    expect(row).toMatchObject({ action: "settings.update", label: "Settings changed" });
    // (In the order PostgreSQL's jsonb keeps the keys: shorter first.)
    expect(row!.fields.map((f) => [f.label, f.before, f.after])).toEqual([
      ["Seconds per lease", "the default", "2.5 s"],
      ["Calls per lease", "the default", "5 calls"],
    ]);
    // The same again writes nothing; 0 calls turns leasing off; empty is the default again.
    const n = await audits();
    await owner.settings.updateCreditLease({ calls: " 5 ", seconds: "2.500" });
    expect(await audits()).toBe(n);
    expect(await owner.settings.updateCreditLease({ calls: "0", seconds: "2.5" })).toMatchObject({ calls: 0, on: false });
    expect(await owner.settings.updateCreditLease({ calls: "", seconds: null })).toMatchObject({ calls: null, ms: null });
    expect(await stored()).toEqual({ calls: null, ms: null });
    expect(await audits()).toBe(n + 2);
  });

  it("a viewer is refused (403) and nothing is written", async () => {
    await owner.settings.updateCreditLease({ calls: "8", seconds: "4" });
    const n = await audits();
    await expect(viewer.settings.updateCreditLease({ calls: "0", seconds: null })).rejects.toMatchObject({ code: "FORBIDDEN" });
    expect(await stored()).toEqual({ calls: 8, ms: 4_000 });
    expect(await audits()).toBe(n);
    // A viewer still reads them.
    expect((await viewer.settings.get()).creditLease).toMatchObject({ calls: 8, ms: 4_000 });
  });

  it("a bound out of range or malformed is refused with the range, and nothing is written", async () => {
    const n = await audits();
    const was = await stored();
    for (const calls of ["1001", "-1", "1.5", "abc", "1e3"])
      await expect(owner.settings.updateCreditLease({ calls, seconds: null }), calls).rejects.toMatchObject({
        code: "BAD_REQUEST",
        message: "calls per lease must be a whole number from 0 (no leases) to 1,000, or empty for the default",
      });
    for (const seconds of ["0", "0.999", "60.001", "61", "1.0001", "-5", "abc"])
      await expect(owner.settings.updateCreditLease({ calls: null, seconds }), seconds).rejects.toMatchObject({
        code: "BAD_REQUEST",
        message: "seconds per lease must be from 1 to 60 (at most 3 decimal places), or empty for the default",
      });
    // The ends of the ranges are allowed.
    expect(await owner.settings.updateCreditLease({ calls: "1000", seconds: "60" })).toMatchObject({ calls: 1_000, ms: 60_000 });
    expect(await owner.settings.updateCreditLease({ calls: was.calls === null ? null : String(was.calls), seconds: "1" })).toMatchObject({ ms: 1_000 });
    expect(await audits()).toBe(n + 2);
  });

  it("a running instance drops its lease at once and takes the next on the new bounds", async () => {
    await owner.settings.updateCreditLease({ calls: "20", seconds: "5" });
    const book = new LeaseBook();
    const stop = listenForLeaseNotices(book);
    try {
      for (let i = 0; i < 100 && !book.listening; i++) await new Promise((r) => setTimeout(r, 20));
      expect(book.listening).toBe(true);
      const agent = await registerAnonymous(routedStore(s.host));
      const planId = (await db.plan.findFirstOrThrow({ where: { sellerId: s.sellerId, slug: "research-credits" } })).id;
      await grantPlanCredit({ sellerId: s.sellerId, planId, credentialId: agent.credentialId, micros: 100n * PRICE });
      const req = {
        sellerId: s.sellerId,
        credentialId: agent.credentialId,
        humanId: null,
        meterKey: "aggregates",
        priceMicros: PRICE,
        method: "GET",
        path: "/api/v1/aggregates/AAPL",
        query: "",
        operationKey: "aggregates",
        transport: "http" as const,
      };
      const leaseOf = async (id: string) => {
        const l = await db.creditLease.findUniqueOrThrow({ where: { id } });
        return { amount: l.amountMicros, ms: l.expiresAt.getTime() - l.createdAt.getTime(), returned: l.returnedAt !== null };
      };
      const first = await book.take(req);
      expect(await leaseOf(first!.leaseId)).toMatchObject({ amount: 20n * PRICE, ms: 5_000 });
      book.release(first!.paymentId);

      const t0 = Date.now();
      await owner.settings.updateCreditLease({ calls: "5", seconds: "2" });
      while (book.leaseCount() && Date.now() - t0 < 2_000) await new Promise((r) => setTimeout(r, 2));
      // Heard at once (the row's notice), not at the lease's end (5 s).
      expect(book.leaseCount()).toBe(0);
      expect(Date.now() - t0).toBeLessThan(1_000);
      const next = await book.take(req);
      expect(next!.leaseId).not.toBe(first!.leaseId);
      expect(await leaseOf(next!.leaseId)).toMatchObject({ amount: 5n * PRICE, ms: 2_000 });
      expect((await leaseOf(first!.leaseId)).returned).toBe(true);
      book.release(next!.paymentId);

      // Turned off: the lease ends, and no instance takes another (the per-call path).
      await owner.settings.updateCreditLease({ calls: "0", seconds: null });
      while (book.leaseCount() && Date.now() - t0 < 4_000) await new Promise((r) => setTimeout(r, 2));
      expect(book.leaseCount()).toBe(0);
      expect(await book.take(req)).toBeNull();
    } finally {
      await book.returnAll();
      stop();
    }
    expect(await db.creditLease.count({ where: { sellerId: s.sellerId, returnedAt: null } })).toBe(0);
  });
});
