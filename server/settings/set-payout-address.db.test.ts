// Changing the payout wallet from the console, from an attacker's and a payer's side, against PostgreSQL, the test chain
// and the real gateway: only an owner, only with their password (and a current code when two-step is on), only a real
// address; the change and its audit row together; every owner emailed; and money in flight: a proof signed for the old
// address after the change is refused with a fresh offer naming the new one, nothing moves, and a fresh 402 pays the new
// address. A payment made before keeps the payTo it was paid to, and the caches holding the seller see the change at once.
import { x402Client, x402HTTPClient } from "@x402/core/client";
import { Secret, TOTP } from "otpauth";
import { describe, expect, it } from "vitest";
import { anvilAddress } from "../../scripts/lib/local-chain";
import { hashPassword } from "../auth/password";
import { beginTwoStep, enableTwoStep } from "../auth/two-step";
import { getCatalog } from "../catalog/catalog";
import { resolveSeller } from "../catalog/resolve-seller";
import { db } from "../db/client";
import { newId } from "../lib/ids";
import {
  callGateway,
  payChallenge,
  payChallengeMpp,
  usdcBalance,
  useGatewayStack,
  type FakeUpstream,
  type GatewaySeller,
  type TestChain,
} from "../testing/gateway";
import { createCaller, sessionFor } from "../testing/trpc";

let chain: TestChain;
let upstream: FakeUpstream;
let seller: GatewaySeller;
useGatewayStack("payout-upstream-secret-0123456789", (s) => ({ chain, upstream, seller } = s));

const PASSWORD = "password-for-tests";
const AAPL = "/api/v1/aggregates/AAPL?from=2024-05-01&to=2024-05-31";
const PRICE = 20_000n;
const PAYER = 4;
const usdc = (address: string) => usdcBalance(chain.rpcUrl, address);
const call = (headers: Record<string, string> = {}) => callGateway(seller.host, AAPL, { headers });
const payTo = async () => (await db.seller.findUniqueOrThrow({ where: { id: seller.sellerId } })).payToAddress;
const audits = () => db.auditLog.findMany({ where: { sellerId: seller.sellerId, action: "settings.payout_address" }, orderBy: { createdAt: "asc" } });

async function member(role: "owner" | "viewer", password = PASSWORD) {
  const tag = newId("tst").slice(4, 12);
  const user = await db.sellerUser.create({
    data: {
      id: newId("usr"),
      sellerId: seller.sellerId,
      email: `${role}-${tag}@payout.test`,
      name: `${role} ${tag}`,
      passwordHash: await hashPassword(password),
      role,
    },
  });
  return { ...user, caller: createCaller(sessionFor(user.id, seller.sellerId)) };
}
const ownerOf = async () => {
  const u = await db.sellerUser.findFirstOrThrow({ where: { sellerId: seller.sellerId }, orderBy: { createdAt: "asc" } });
  return { ...u, caller: createCaller(sessionFor(u.id, seller.sellerId)) };
};

/** The x402 offer a 402 (or a refusal) carries, as the official client reads it. */
async function offerOf(res: Response) {
  const body = await res.json();
  return { body, required: new x402HTTPClient(new x402Client()).getPaymentRequiredResponse((n) => res.headers.get(n), body) };
}

describe("changing the payout wallet", () => {
  it("is an owner's, with their password: viewers get 403, a wrong password and bad addresses change nothing", async () => {
    const owner = await ownerOf();
    const viewer = await member("viewer");
    const before = await payTo();
    const next = anvilAddress(11);
    await expect(viewer.caller.settings.updatePayoutAddress({ address: next, password: PASSWORD })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(owner.caller.settings.updatePayoutAddress({ address: next, password: "not-the-password" })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: "that is not this account's password",
    });
    const bad = [
      "0x123",
      "not an address",
      "0x0000000000000000000000000000000000000000",
      // a mixed-case address whose checksum is wrong: one letter's case flipped
      flipOneCase(next),
      before!,
      before!.toLowerCase(),
    ];
    for (const address of bad)
      await expect(owner.caller.settings.updatePayoutAddress({ address, password: PASSWORD }), address).rejects.toMatchObject({ code: "BAD_REQUEST" });
    expect(await payTo()).toBe(before);
    expect(await audits()).toEqual([]);
  });

  it("asks a member with two-step on for a current code, spent once", async () => {
    const second = await member("owner");
    const begun = await beginTwoStep(second.id);
    if (begun.type !== "begun") throw new Error(begun.type);
    const code = (ms: number) => new TOTP({ secret: Secret.fromBase32(begun.secret) }).generate({ timestamp: ms });
    const now = Date.now();
    expect((await enableTwoStep({ userId: second.id, code: code(now - 30_000), password: PASSWORD, now: now - 30_000 })).type).toBe("on");
    const address = anvilAddress(12);
    await expect(second.caller.settings.updatePayoutAddress({ address, password: PASSWORD })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: expect.stringContaining("give a current code"),
    });
    await expect(second.caller.settings.updatePayoutAddress({ address, password: PASSWORD, code: code(now - 30_000) })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: expect.stringContaining("not a current one"),
    });
    const done = await second.caller.settings.updatePayoutAddress({ address: address.toLowerCase(), password: PASSWORD, code: code(Date.now()) });
    expect(done.payTo).toBe(address);
    expect(await payTo()).toBe(address);
  });

  it("writes the checksum form with its audit row, emails every owner once, and money in flight follows the new address", async () => {
    const owner = await ownerOf();
    const viewer = await db.sellerUser.findFirstOrThrow({ where: { sellerId: seller.sellerId, role: "viewer" } });
    const owners = await db.sellerUser.findMany({ where: { sellerId: seller.sellerId, role: "owner" } });
    // A payment made before the change: settled to the old address, and it stays so.
    const old = (await payTo())!;
    const earlier = await call(await payChallenge(await call(), PAYER));
    expect(earlier.status).toBe(200);
    // A 402 issued before the change, signed after it: the payer's authorization names the old address.
    const stale = await payChallenge(await call(), PAYER);
    // And an x402 v1 proof (no offer echoed): its authorization names the old address as recipient.
    const staleV1 = await payChallenge(await call(), PAYER, { v1: true });
    // And an MPP credential, whose challenge names the old address as recipient.
    const staleMpp = await payChallengeMpp(await call(), PAYER);
    const next = anvilAddress(13);
    const auditsBefore = (await audits()).length;
    const since = new Date();
    const done = await owner.caller.settings.updatePayoutAddress({ address: next.toLowerCase(), password: PASSWORD });
    expect(done).toMatchObject({ previous: old, payTo: next, notified: owners.length });

    const rows = await audits();
    expect(rows).toHaveLength(auditsBefore + 1);
    expect(rows.at(-1)).toMatchObject({ actorId: owner.id, before: { payToAddress: old }, after: { payToAddress: next } });
    const mails = await db.outboxMessage.findMany({ where: { subject: "Your payout wallet was changed", createdAt: { gte: since } } });
    expect(mails.map((m) => m.to).sort()).toEqual(owners.map((o) => o.email).sort());
    expect(mails.some((m) => m.to === viewer.email)).toBe(false);
    for (const m of mails) expect(m.text).toContain(`Old address: ${old}\nNew address: ${next}`);
    expect(mails[0]!.text).toContain(owner.email);

    // The caches holding the seller see the new address at once (the host cache, and the catalog discovery reads).
    const row = await resolveSeller(seller.host);
    expect(row.payToAddress).toBe(next);
    expect((await getCatalog(row)).seller.payToAddress).toBe(next);

    const payer = anvilAddress(PAYER);
    const [payerBefore, oldBefore, calls] = [await usdc(payer), await usdc(old), upstream.state.calls];
    const refused = await call(stale);
    expect(refused.status).toBe(402);
    const { body, required } = await offerOf(refused);
    expect(body).toMatchObject({ error: "payment_required", reason: "terms_changed" });
    expect(new Set(required.accepts.map((a) => a.payTo))).toEqual(new Set([next])); // every scheme offered (exact, batch)
    expect(await usdc(payer)).toBe(payerBefore);
    expect(await usdc(old)).toBe(oldBefore);
    expect(upstream.state.calls).toBe(calls);
    const refusedMpp = await call(staleMpp);
    expect(refusedMpp.status).toBe(402);
    expect(await refusedMpp.json()).toMatchObject({ error: "payment_required", reason: "terms_changed" });
    const refusedV1 = await call(staleV1);
    expect(refusedV1.status).toBe(402);
    expect(new Set((await offerOf(refusedV1)).required.accepts.map((a) => a.payTo))).toEqual(new Set([next]));
    expect(await usdc(payer)).toBe(payerBefore);
    expect(upstream.state.calls).toBe(calls);

    const fresh = await call(await payChallenge(await call(), PAYER));
    expect(fresh.status).toBe(200);
    expect(await usdc(payer)).toBe(payerBefore - PRICE);
    expect(await usdc(next)).toBe(PRICE);
    expect(await usdc(old)).toBe(oldBefore);
    const payments = await db.payment.findMany({
      where: { sellerId: seller.sellerId, status: { in: ["settled", "consumed"] } },
      orderBy: { createdAt: "asc" },
    });
    expect(payments.map((p) => p.payTo)).toEqual([old, next]);
  });
});

/** The address with one letter's case flipped: same bytes, a checksum that no longer matches. */
function flipOneCase(address: string): string {
  const i = [...address].findIndex((c, n) => n > 1 && /[a-fA-F]/.test(c));
  const c = address[i]!;
  return address.slice(0, i) + (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase()) + address.slice(i + 1);
}
