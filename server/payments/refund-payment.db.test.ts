// One refund procedure for every rail: the payment's rail refunds it through its `refund` capability (and says what
// the seller must supply), or the procedure refuses, naming why, and nothing changes.
import { randomBytes } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { USDC_ADDRESS } from "../chain/config";
import { db } from "../db/client";
import { newId } from "../lib/ids";
import { openCheckoutFor, payOnPage, TEST_CARD } from "../testing/card";
import { createGatewaySeller, type GatewaySeller } from "../testing/gateway";
import { createCaller, sessionFor } from "../testing/trpc";
import { scheduleSettlement } from "./payments.queries";
import { lockChallengedPayment } from "./locks.queries";
import { createChallengedPayment } from "./challenges.queries";
import { recordSettlementSuccess } from "./settlements.queries";

let seller: GatewaySeller;
let userId: string;

beforeAll(async () => {
  seller = await createGatewaySeller("http://127.0.0.1:9", { signingSecret: "refund-procedure-secret-0123456" });
  userId = (await db.sellerUser.findFirstOrThrow({ where: { sellerId: seller.sellerId } })).id;
});

const caller = () => createCaller(sessionFor(userId, seller.sellerId));

/** A payment of `rail` moved through the payments queries to `settled` (or left challenged). */
async function payment(rail: string | null): Promise<string> {
  const id = newId("pay");
  await createChallengedPayment({
    id,
    sellerId: seller.sellerId,
    method: "GET",
    path: "/api/v1/aggregates/AAPL",
    query: "",
    operationKey: "aggregates",
    meterKey: "aggregates",
    amountMicros: 20_000n,
    payTo: "0xBcd4042DE499D14e55001CcbB24a551F3b954096",
    network: null,
    asset: null,
    expiresAt: new Date(Date.now() + 300_000),
  });
  if (!rail) return id;
  const lock = {
    rail,
    payer: "0x70997970c51812dc3a010c7d01b50e0d17dc79c8",
    lockKey: `test:${randomBytes(16).toString("hex")}`,
    railData: {},
    leaseSeconds: 60,
  };
  expect(
    await lockChallengedPayment(seller.sellerId, id, {
      ...lock,
      network: rail === "x402" ? "eip155:8453" : null,
      asset: rail === "x402" ? USDC_ADDRESS : null,
    }),
  ).toBe("locked");
  expect(await scheduleSettlement(id, 200, 1, 60)).toBe(true);
  expect(await recordSettlementSuccess(id, `0x${randomBytes(32).toString("hex")}`)).toBe(true);
  return id;
}

const stateOf = (id: string) => db.payment.findUniqueOrThrow({ where: { id }, select: { status: true, updatedAt: true } });

describe("payments.refund", () => {
  it("lists what each payment's rail asks of the seller: a transaction (wallet), nothing (card), or no refund at all (credits)", async () => {
    const [wallet, credits] = [await payment("x402"), await payment("credits")];
    const opened = await openCheckoutFor(seller.host, "/api/v1/backtest/AAPL?years=1");
    await payOnPage(seller.sellerId, opened.paymentId, TEST_CARD.success);
    const rows = (await caller().payments.list({})).payments;
    const row = (id: string) => rows.find((p) => p.id === id)!;
    expect(row(wallet)).toMatchObject({ refundable: true, refundInput: "transaction" });
    expect(row(opened.paymentId)).toMatchObject({ refundable: true, refundInput: "none" });
    // A draw on credit is usage, listed with `usage` (the console's Usage page), not among payments.
    const draw = (await caller().payments.list({ usage: true })).payments.find((p) => p.id === credits)!;
    expect(draw).toMatchObject({ refundable: false, refundInput: null });
    expect(await caller().payments.detail({ id: opened.paymentId })).toMatchObject({ refundable: true, refundInput: "none" });
  });

  it("refuses what the rail cannot take, and what no rail refunds, changing nothing", async () => {
    const opened = await openCheckoutFor(seller.host, "/api/v1/backtest/AAPL?years=1");
    await payOnPage(seller.sellerId, opened.paymentId, TEST_CARD.success);
    const card = await stateOf(opened.paymentId);
    await expect(caller().payments.refund({ paymentId: opened.paymentId, transaction: `0x${"1".repeat(64)}` })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      cause: { code: "invalid_request", extra: { parameter: "transaction" } },
    });
    expect(await stateOf(opened.paymentId)).toEqual(card);

    const credits = await payment("credits");
    const drawn = await stateOf(credits);
    await expect(caller().payments.refund({ paymentId: credits })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: expect.stringMatching(/refunds nothing here/),
    });
    expect(await stateOf(credits)).toEqual(drawn);

    const unpaid = await payment(null);
    await expect(caller().payments.refund({ paymentId: unpaid })).rejects.toMatchObject({ code: "CONFLICT", cause: { code: "payment_not_refundable" } });
  });
});
