// The Payments page as a seller uses it: money apart from usage (draws on prepaid credit on the Usage page), a search
// that finds a payment by id, wallet, transaction, card processor id, credential or a person's email, three orders that
// page through every row once, totals of the filtered set, and the shell's global search.
import { randomBytes } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { seedMarketSeller } from "../../../prisma/seed";
import { db } from "../../db/client";
import { newId } from "../../lib/ids";
import { MAX_CHALLENGE_ID_LENGTH, signChallengeId } from "../../payments/challenge-id";
import { listSellerPayments } from "../../payment-reports/list-seller-payments";
import { SEARCH_MAX_LENGTH } from "../../payment-reports/payment-filter";
import { processorReference } from "../../payments/rails/card/processor/processor-reference";
import { createCaller, sessionFor } from "../../testing/trpc";

const WALLET = "0xabcdefabcdefabcdefabcdefabcdefabcdef0001";
const OTHER = "0xabcdefabcdefabcdefabcdefabcdefabcdef0002";
const TX = `0x${"ab".repeat(32)}`;
type Caller = ReturnType<typeof createCaller>;
let caller: Caller;
let other: Caller;
let sellerId: string;
let credential: string;
let email: string;
const ids: Record<string, string> = {};

async function payment(
  name: string,
  data: { status: "challenged" | "consumed" | "refunded" | "released"; rail: string | null; micros: bigint; minute: number } & Record<string, unknown>,
) {
  const { minute, micros, ...rest } = data;
  const id = newId("pay");
  ids[name] = id;
  await db.payment.create({
    data: {
      id,
      sellerId,
      method: "GET",
      path: "/api/v1/aggregates/AAPL",
      query: "",
      operationKey: "aggregates",
      meterKey: "aggregates",
      amountMicros: micros,
      expiresAt: new Date("2030-01-01T00:10:00Z"),
      createdAt: new Date(`2030-01-01T00:${String(minute).padStart(2, "0")}:00Z`),
      fromChallenge: true,
      ...rest,
    },
  });
  return id;
}

/** A seller of the market template with no wallet and no upstream secret: what these tests list and search. */
const seedSeller = (slug: string, name: string) =>
  seedMarketSeller(db, { slug, name, hosts: [`${slug}.test`], email: `${slug}@pc.test`, password: "pw-123456", payTo: null, signingSecret: null });

beforeAll(async () => {
  const tag = randomBytes(4).toString("hex");
  const s = await seedSeller(`pc-${tag}`, "PC");
  sellerId = s.sellerId;
  caller = createCaller(sessionFor(s.userId, s.sellerId));
  const o = await seedSeller(`pc-o-${tag}`, "PC other");
  other = createCaller(sessionFor(o.userId, o.sellerId));
  email = `person-${tag}@people.test`;
  const human = await db.human.create({ data: { id: newId("hum"), email } });
  credential = newId("agt");
  await db.agentCredential.create({ data: { id: credential, sellerId, kind: "anonymous", status: "claimed", humanId: human.id, claimedAt: new Date() } });
  await payment("wallet", {
    status: "consumed",
    rail: "x402",
    payer: WALLET,
    transaction: TX,
    micros: 20_000n,
    minute: 1,
    network: "eip155:8453",
    settledAt: new Date(),
  });
  await payment("big", { status: "consumed", rail: "mpp", payer: OTHER, micros: 500_000n, minute: 2 });
  await payment("refunded", { status: "refunded", rail: "x402", payer: OTHER, micros: 30_000n, minute: 3 });
  await payment("unpaid", { status: "challenged", rail: null, micros: 20_000n, minute: 4 });
  // A card checkout's row carries the network its 402 named, like every challenge; it was never paid on chain.
  await payment("card", { status: "consumed", rail: "card", micros: 700_000n, minute: 5, network: "eip155:8453", settledAt: new Date() });
  await db.cardPayment.create({ data: { paymentId: ids.card!, processor: "test", flow: "checkout", processorPaymentId: `pi_test_${tag}` } });
  await payment("purchase", {
    status: "consumed",
    rail: "x402",
    payer: WALLET,
    micros: 5_000_000n,
    minute: 6,
    operationKey: "plan_purchase",
    credentialId: credential,
  });
  for (let i = 0; i < 3; i++)
    await payment(`draw${i}`, {
      status: "consumed",
      rail: "credits",
      payer: credential,
      credentialId: credential,
      micros: 20_000n,
      minute: 7 + i,
      fromChallenge: false,
    });
});

const listIds = async (input: Parameters<Caller["payments"]["list"]>[0]) => (await caller.payments.list(input)).payments.map((p) => p.id);

describe("the Payments list", () => {
  it("shows money that moved; draws on prepaid credit are usage, listed apart (or by naming their rail)", async () => {
    const money = await listIds({});
    expect(money).toEqual([ids.purchase, ids.card, ids.refunded, ids.big, ids.wallet]);
    expect(await listIds({ usage: true })).toEqual([ids.draw2, ids.draw1, ids.draw0]);
    expect(await listIds({ rail: "credits" })).toEqual([ids.draw2, ids.draw1, ids.draw0]);
    const totals = await caller.payments.totals();
    expect(totals.byStatus.find((s) => s.status === "consumed")!.count).toBe(4);
    expect(totals.usage.draws).toBe(0); // no ledger rows were written for these fixtures
  });

  it("finds a payment by id, wallet, transaction, card processor id, credential, a person's email, or the start of an id", async () => {
    expect(await listIds({ q: ids.big })).toEqual([ids.big]);
    expect(await listIds({ q: WALLET.toUpperCase().replace("0X", "0x") })).toEqual([ids.purchase, ids.wallet]);
    expect(await listIds({ q: TX })).toEqual([ids.wallet]);
    expect(await listIds({ q: (await db.cardPayment.findUniqueOrThrow({ where: { paymentId: ids.card! } })).processorPaymentId! })).toEqual([ids.card]);
    expect(await listIds({ q: credential })).toEqual([ids.purchase]);
    expect(await listIds({ q: credential, usage: true })).toEqual([ids.draw2, ids.draw1, ids.draw0]);
    expect(await listIds({ q: email.toUpperCase() })).toEqual([ids.purchase]);
    expect(await listIds({ q: ids.refunded!.slice(0, 10) })).toEqual([ids.refunded]);
    // Wildcards in the text are text: nothing matches "%".
    expect(await listIds({ q: "%" })).toEqual([]);
    // Another seller finds none of it.
    expect((await other.payments.list({ q: ids.big })).payments).toEqual([]);
  });

  it("finds a payment born from a signed challenge id: whole, by its start in its own case, and by its card processor reference", async () => {
    // A seller of its own, so the other tests' lists and totals stay as they are.
    const tag = randomBytes(4).toString("hex");
    const s = await seedSeller(`pc-s-${tag}`, "PC signed");
    const seller = createCaller(sessionFor(s.userId, s.sellerId));
    // Mixed-case base64url, longer than the search used to take; paid by card, so Stripe knows it by its reference.
    const signed = signChallengeId({
      sellerId: s.sellerId,
      method: "GET",
      path: "/aggregates/AAPL",
      query: `from=2017-01-03&to=2017-03-31&tag=${tag}`,
      amountMicros: 600_000n,
      operationKey: "aggregates",
      meterKey: "aggregates",
      issuedAt: 1_900_000_000,
      expiresAt: 1_900_000_300,
      credentialId: null,
      purchase: null,
      transport: "http",
    });
    await db.payment.create({
      data: {
        id: signed,
        sellerId: s.sellerId,
        method: "GET",
        path: "/api/v1/aggregates/AAPL",
        query: "",
        operationKey: "aggregates",
        meterKey: "aggregates",
        amountMicros: 600_000n,
        expiresAt: new Date("2030-01-01T00:10:00Z"),
        status: "consumed",
        rail: "card",
        settledAt: new Date(),
        fromChallenge: true,
      },
    });
    await db.cardPayment.create({ data: { paymentId: signed, processor: "test", flow: "checkout", processorRef: processorReference(signed) } });
    expect(signed.length).toBeGreaterThan(200);
    expect(signed.slice(0, 60)).toMatch(/[A-Z]/);
    expect(SEARCH_MAX_LENGTH).toBeGreaterThanOrEqual(MAX_CHALLENGE_ID_LENGTH);
    const found = async (q: string) => (await seller.payments.list({ q })).payments.map((p) => p.id);
    expect(await found(signed)).toEqual([signed]);
    expect(await found(signed.slice(0, 60))).toEqual([signed]);
    expect(await found(processorReference(signed))).toEqual([signed]);
    expect((await seller.search.global({ q: signed })).hits.map((h) => h.id)).toEqual([signed]);
    expect((await seller.search.global({ q: processorReference(signed) })).hits.map((h) => h.id)).toEqual([signed]);
    // Another seller finds none of it.
    expect((await caller.payments.list({ q: signed })).payments).toEqual([]);
    expect((await caller.payments.list({ q: processorReference(signed) })).payments).toEqual([]);
  });

  it("orders newest, oldest or largest first, and pages through every row once in each order", async () => {
    for (const [sort, expected] of [
      ["oldest", [ids.wallet, ids.big, ids.refunded, ids.card, ids.purchase]],
      ["amount", [ids.purchase, ids.card, ids.big, ids.refunded, ids.wallet]],
      ["newest", [ids.purchase, ids.card, ids.refunded, ids.big, ids.wallet]],
    ] as const) {
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const page: Awaited<ReturnType<typeof listSellerPayments>> = await listSellerPayments(sellerId, { sort, cursor, limit: 2 });
        seen.push(...page.payments.map((p) => p.id));
        cursor = page.nextCursor;
      } while (cursor && seen.length < 20);
      expect(seen, sort).toEqual(expected);
    }
  });

  it("totals the filtered set: how many, for how much, paid and refunded", async () => {
    expect(await caller.payments.summary({})).toEqual({
      count: 5,
      amountUsd: "6.250000",
      paid: { count: 4, amountUsd: "6.220000" },
      refunded: { count: 1, amountUsd: "0.030000" },
    });
    expect(await caller.payments.summary({ q: WALLET })).toMatchObject({ count: 2, amountUsd: "5.020000" });
    expect(await caller.payments.summary({ usage: true })).toMatchObject({ count: 3, amountUsd: "0.060000" });
  });
});

describe("a payment's page", () => {
  it("says where the money moved: on chain for a wallet, to the card for a card payment (never on chain)", async () => {
    const wallet = await caller.payments.detail({ id: ids.wallet! });
    expect(wallet.timeline.find((t) => t.state === "settled")!.note).toMatch(/^charged on chain \(Base\)/);
    expect(wallet.binding.chain).toBe("Base");
    const card = await caller.payments.detail({ id: ids.card! });
    expect(card.timeline.find((t) => t.state === "settled")!.note).toMatch(/^charged to the card \(processor payment pi_test_/);
    expect(card.timeline.map((t) => t.note).join(" ")).not.toMatch(/on chain/);
    expect(card.timeline.map((t) => t.state)).toContain("incomplete");
  });
});

describe("the shell's global search", () => {
  it("finds a payment, a wallet, a credential, a person and catalog names, with the page that shows each", async () => {
    expect((await caller.search.global({ q: ids.card! })).hits).toEqual([expect.objectContaining({ kind: "payment", href: `/console/payments/${ids.card}` })]);
    expect((await caller.search.global({ q: WALLET })).hits).toEqual([
      expect.objectContaining({ kind: "wallet", detail: expect.stringContaining("2 payments"), href: `/console/payments?payer=${WALLET}` }),
    ]);
    const person = (await caller.search.global({ q: email })).hits;
    expect(person.map((h) => h.kind)).toEqual(["person", "credential"]);
    expect(person[1]).toMatchObject({ id: credential, detail: expect.stringContaining(email) });
    expect((await caller.search.global({ q: "research" })).hits).toEqual(
      expect.arrayContaining([expect.objectContaining({ kind: "plan", id: "research-credits" })]),
    );
    expect((await caller.search.global({ q: TX })).hits.map((h) => h.id)).toEqual([ids.wallet]);
    expect((await other.search.global({ q: email })).hits).toEqual([]);
  });
});
