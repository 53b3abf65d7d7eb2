// The host -> seller cache stays true when a seller changes from anywhere: another instance, or hand-written SQL.
// The database announces every change (triggers on sellers and seller_hosts, channel catalog_changed); nothing here
// calls the in-process invalidation, so these pass only through PostgreSQL's notifications.
import { describe, expect, it } from "vitest";
import { seedMarketSeller } from "../../prisma/seed";
import { db } from "../db/client";
import { newId } from "../lib/ids";
import { resolveSeller } from "./resolve-seller";

async function eventually<T>(read: () => Promise<T>, ok: (v: T) => boolean, ms = 3000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const v = await read();
    if (ok(v) || Date.now() > until) return v;
    await new Promise((r) => setTimeout(r, 20));
  }
}

const settle = <T>(p: Promise<T>) =>
  p.then(
    (v) => ({ ok: true as const, v }),
    (e: unknown) => ({ ok: false as const, e }),
  );

describe("resolveSeller's cache", () => {
  it("serves a host from memory once listening, and drops it when the seller changes in the database", async () => {
    const tag = newId("tst").slice(4);
    const host = `cache-${tag}.test`;
    const { sellerId } = await seedMarketSeller(db, {
      slug: `cache-${tag}`,
      name: "Cache",
      hosts: [host],
      email: `${tag}@cache.test`,
      password: "pw-123456",
      payTo: null,
      signingSecret: null,
    });
    // Cached: the same row object comes back (the listener is up once two reads in a row agree).
    const first = await eventually(
      async () => [await resolveSeller(host), await resolveSeller(host)] as const,
      ([a, b]) => a === b,
    );
    expect(first[0]).toBe(first[1]);
    expect(first[0].payToAddress).toBeNull();

    // Changed by hand-written SQL: no application code runs, the trigger tells every listener.
    const payTo = "0x71bE63f3384f5fb98995898A86B02Fb2426c5788";
    await db.$executeRaw`update sellers set pay_to_address = ${payTo} where id = ${sellerId}`;
    const after = await eventually(
      () => resolveSeller(host),
      (s) => s.payToAddress === payTo,
    );
    expect(after.payToAddress).toBe(payTo);

    // A host added and a host removed.
    const other = `cache2-${tag}.test`;
    await db.sellerHost.create({ data: { hostname: other, sellerId } });
    expect((await resolveSeller(other)).id).toBe(sellerId);
    await db.sellerHost.delete({ where: { hostname: host } });
    const gone = await eventually(
      () => settle(resolveSeller(host)),
      (r) => !r.ok,
    );
    expect(gone.ok).toBe(false);
  });
});
