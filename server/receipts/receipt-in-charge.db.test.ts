// The receipt is kept by the charge statement itself: a charged answer on a rail that charges from the outbox (x402,
// MPP, the MPP card method), or by the delivery's statement of a card checkout paid before the call, sends no statement
// of its own for its receipt, and the kept receipt is the one the answer carried, there by the time the answer is. Statements are counted at the pool, by their names (server/db `sql`).
import pg from "pg";
import { describe, expect, it, vi } from "vitest";
import { db } from "../db/client";
import { callGateway, useGatewayStack, type FakeUpstream, type GatewaySeller, type TestChain } from "../testing/gateway";
import type { ProofWay } from "../testing/rail-conformance";
import { kit as cardKit } from "../payments/rails/card/conformance.test-kit";
import { flushCaptures } from "../payments/rails/credits/capture-queue";
import { kit as creditsKit } from "../payments/rails/credits/conformance.test-kit";
import { kit as mppKit } from "../payments/rails/mpp/conformance.test-kit";
import { kit as x402Kit } from "../payments/rails/x402/conformance.test-kit";

let chain: TestChain;
let upstream: FakeUpstream;
let seller: GatewaySeller;

useGatewayStack("fake-upstream-secret-0123456789", (s) => ({ chain, upstream, seller } = s));

/** The names of the named statements sent while `fn` runs (and until its stragglers settle). */
async function namedStatements(fn: () => Promise<void>): Promise<string[]> {
  const names: string[] = [];
  const query = pg.Pool.prototype.query;
  const spy = vi.spyOn(pg.Pool.prototype, "query").mockImplementation(function (this: pg.Pool, ...args: unknown[]) {
    const first = args[0] as { name?: string } | string;
    if (typeof first === "object" && first?.name) names.push(first.name);
    return (query as (...a: unknown[]) => unknown).apply(this, args);
  } as never);
  try {
    await fn();
    // A statement sent off the response path (as the receipt's was) goes out within a turn or two of the answer.
    await new Promise((r) => setTimeout(r, 200));
  } finally {
    spy.mockRestore();
  }
  return names;
}

// The hosted checkout is charged before the call: its delivery's statement (settled -> consumed) keeps the receipt.
const WAYS: ProofWay[] = [x402Kit.ways[0]!, mppKit.ways[0]!, ...cardKit.ways];

describe.each(WAYS)("a charged answer ($name)", (way) => {
  it("keeps its receipt in the charge statement: no statement of its own, and the row has it when the answer arrives", async () => {
    const proof = await way.pay(await callGateway(seller.host, way.path), { chain, upstream, seller });
    let res!: Response;
    const names = await namedStatements(async () => {
      res = await callGateway(seller.host, way.path, { headers: proof });
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("svc-billing")).toContain("status=charged");
    if (!way.name.includes("hosted checkout")) expect(names).toContain("payments_record_settled");
    expect(names).not.toContain("payments_record_receipt");
    const row = await db.payment.findUniqueOrThrow({ where: { id: res.headers.get("svc-payment-id")! } });
    expect(row.receipt).toBe(res.headers.get("svc-receipt"));
  });
});

// A plan-covered call is charged by the capture queue's batched statement after the answer: that statement keeps the
// receipt, and nothing else writes it.
describe("a plan-covered answer (credits)", () => {
  it("keeps its receipt in the capture's statement: no statement of its own, and the row has it once the capture lands", async () => {
    const way = creditsKit.ways[0]!;
    const proof = await way.pay(await callGateway(seller.host, way.path), { chain, upstream, seller });
    let res!: Response;
    const names = await namedStatements(async () => {
      res = await callGateway(seller.host, way.path, { headers: proof });
      await flushCaptures();
    });
    expect(res.status).toBe(200);
    expect(names).toContain("billing_capture_draws");
    expect(names).not.toContain("payments_record_receipt");
    const row = await db.payment.findUniqueOrThrow({ where: { id: res.headers.get("svc-payment-id")! } });
    expect(row.status).toBe("consumed");
    expect(row.receipt).toBe(res.headers.get("svc-receipt"));
  });
});
