// A customer's page (customers.customer) as a seller reads it: a wallet's spend net of refunds from the ledger, a person
// found by email over the card checkouts they paid and the credentials they claimed (with the plan credit left), a
// credential on its own; unpaid 402s and draws are not payments; another seller's customer and a made-up id are not found.
import { randomBytes } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { seedMarketSeller } from "../../prisma/seed";
import { db } from "../db/client";
import { newId } from "../lib/ids";
import { createCaller, sessionFor } from "../testing/trpc";
import { exportSellerUsage, USAGE_CSV_COLUMNS } from "../payment-reports/export-seller-usage";
import { CUSTOMER_CSV_COLUMNS, exportCustomers } from "../payment-reports/export-customers";

async function csv(chunks: AsyncGenerator<string>, columns: readonly string[]) {
  let text = "";
  for await (const c of chunks) text += c;
  const [header, ...lines] = text.trimEnd().split("\r\n");
  expect(header).toBe(columns.join(","));
  return lines.map((l) => Object.fromEntries(l.split(",").map((v, i) => [columns[i], v])));
}

const WALLET = `0x${randomBytes(20).toString("hex")}`;
type Caller = ReturnType<typeof createCaller>;
let caller: Caller;
let other: Caller;
let sellerId: string;
let email: string;
let credential: string;

async function paid(data: {
  rail: string;
  micros: bigint;
  payer?: string;
  credentialId?: string;
  refunded?: boolean;
  operationKey?: string;
  status?: "challenged";
}) {
  const id = newId("pay");
  const status = data.status ?? (data.refunded ? "refunded" : "consumed");
  await db.payment.create({
    data: {
      id,
      sellerId,
      status,
      rail: data.status ? null : data.rail,
      method: "GET",
      path: "/api/v1/aggregates/AAPL",
      query: "",
      operationKey: data.operationKey ?? "aggregates",
      amountMicros: data.micros,
      payer: data.payer ?? null,
      credentialId: data.credentialId ?? null,
      expiresAt: new Date(Date.now() + 60_000),
    },
  });
  if (data.status) return id;
  const kind = data.rail === "credits" ? "draw" : "charge";
  const row = {
    sellerId,
    paymentId: id,
    rail: data.rail,
    payer: data.payer ?? null,
    operationKey: data.operationKey ?? "aggregates",
    amountMicros: data.micros,
  };
  await db.ledgerEntry.create({ data: { id: newId("led"), kind, ...row } });
  if (data.refunded) await db.ledgerEntry.create({ data: { id: newId("led"), kind: "refund", ...row } });
  return id;
}

const seedSeller = (slug: string) =>
  seedMarketSeller(db, { slug, name: slug, hosts: [`${slug}.test`], email: `${slug}@cu.test`, password: "pw-123456", payTo: null, signingSecret: null });

beforeAll(async () => {
  const tag = randomBytes(4).toString("hex");
  const s = await seedSeller(`cu-${tag}`);
  sellerId = s.sellerId;
  caller = createCaller(sessionFor(s.userId, s.sellerId));
  const o = await seedSeller(`cu-o-${tag}`);
  other = createCaller(sessionFor(o.userId, o.sellerId));
  email = `buyer-${tag}@people.test`;
  const human = await db.human.create({ data: { id: newId("hum"), email } });
  credential = newId("agt");
  await db.agentCredential.create({ data: { id: credential, sellerId, kind: "anonymous", status: "claimed", humanId: human.id, claimedAt: new Date() } });
});

describe("customers.customer", () => {
  it("a wallet: paid, refunded and net from the ledger, its payments newest first, unpaid 402s left out", async () => {
    const first = await paid({ rail: "x402", micros: 1_250_000n, payer: WALLET });
    const refunded = await paid({ rail: "mpp", micros: 20_000n, payer: WALLET, refunded: true });
    await paid({ rail: "x402", micros: 990_000n, payer: WALLET, status: "challenged" });
    const c = await caller.customers.customer({ id: WALLET.toUpperCase().replace("0X", "0x") });
    expect(c.kind).toBe("wallet");
    expect(c.spend).toMatchObject({ paidUsd: "1.270000", refundedUsd: "0.020000", netUsd: "1.250000", payments: 2, refunds: 1 });
    expect(c.payments.map((p) => p.id).sort()).toEqual([first, refunded].sort());
    expect(c.payments.find((p) => p.id === refunded)).toMatchObject({ status: "refunded", refundedUsd: "0.020000" });
    expect(c.creditLeftUsd).toBe("0.000000");
  });

  it("a person by email: their card checkouts and their credentials' purchases, plan credit left, draws as usage", async () => {
    const card = await paid({ rail: "card", micros: 2_000_000n });
    await db.cardPayment.create({ data: { paymentId: card, processor: "test", flow: "checkout", payerEmail: email, cardBrand: "visa", cardLast4: "4242" } });
    const purchase = await paid({ rail: "x402", micros: 5_000_000n, payer: WALLET, credentialId: credential, operationKey: "plan_purchase" });
    const plan = await db.plan.findFirstOrThrow({ where: { sellerId } });
    await db.creditGrant.create({
      data: {
        id: newId("grt"),
        sellerId,
        planId: plan.id,
        credentialId: credential,
        sourcePaymentId: purchase,
        amountMicros: 5_000_000n,
        remainingMicros: 4_960_000n,
        expiresAt: new Date(Date.now() + 86_400_000),
      },
    });
    await paid({ rail: "credits", micros: 40_000n, payer: credential, credentialId: credential });
    const c = await caller.customers.customer({ id: email.toUpperCase() });
    expect(c.kind).toBe("email");
    expect(c.credentials.map((x) => x.id)).toEqual([credential]);
    expect(c.cards).toEqual(["VISA •••• 4242"]);
    expect(c.spend).toMatchObject({ paidUsd: "7.000000", netUsd: "7.000000", payments: 2, drawnUsd: "0.040000", draws: 1 });
    expect(c.creditLeftUsd).toBe("4.960000");
    expect(c.plans).toEqual([expect.objectContaining({ plan: plan.name, boughtUsd: "5.000000", remainingUsd: "4.960000", live: true })]);
    // The draw is usage, not a payment.
    expect(c.payments.map((p) => p.id).sort()).toEqual([card, purchase].sort());
    // The credential alone: its purchase and draw, not the card checkout.
    const byCredential = await caller.customers.customer({ id: credential });
    expect(byCredential.spend).toMatchObject({ paidUsd: "5.000000", payments: 1, draws: 1 });
  });

  it("another seller's customer, and an id that names no one, are not found", async () => {
    await expect(other.customers.customer({ id: WALLET })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(other.customers.customer({ id: email })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(caller.customers.customer({ id: "robert'); drop table payments;--" })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(caller.customers.customer({ id: `0x${"0".repeat(40)}` })).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  it("exports the range's customers and the draws on credit as CSV in words and dollars and cents", async () => {
    const customers = await csv(exportCustomers(sellerId, { preset: "today" }), CUSTOMER_CSV_COLUMNS);
    expect(customers.find((r) => r.Customer === WALLET)).toMatchObject({
      Type: "Wallet",
      Payments: "3",
      Refunds: "1",
      "Spend (net)": "6.25",
      Refunded: "0.02",
      Currency: "USD",
    });
    expect(customers.find((r) => r.Customer === email)).toMatchObject({ Type: "Card payer", "Paid with": "Card", Payments: "1", "Spend (net)": "2.00" });
    const usage = await csv(exportSellerUsage(sellerId, {}), USAGE_CSV_COLUMNS);
    expect(usage).toEqual([expect.objectContaining({ "Agent credential": credential, "Credit spent": "0.04", Currency: "USD", Status: "Succeeded" })]);
  });
});
