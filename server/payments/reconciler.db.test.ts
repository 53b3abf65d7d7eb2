// Crash recovery: a gateway process killed between verify and settle is finished by the reconciler on the
// next start, which settles or releases the payment, never both, and never moves the money twice. The same kill
// tests run for both wallet rails, through the rail interface (the reconciler never names a rail).
import { spawn } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import * as gatewayRoute from "../../app/api/v1/[...path]/route";
import { anvilAddress } from "../../scripts/lib/local-chain";
import { authorizationFate } from "../chain/authorization";
import { USDC_ADDRESS } from "../chain/config";
import { db } from "../db/client";
import { callGateway, payChallenge, payOn, usdcBalance, useGatewayStack, type TestChain, type FakeUpstream, type GatewaySeller } from "../testing/gateway";
import { registerAnonymous, routedStore } from "../testing/identity-harness";
import * as purchaseRoute from "../../app/plans/[planId]/purchase/route";
import { facilitatorInput, type StoredAuthorization as StoredProof } from "./eip3009/authorization";
import { getFacilitator } from "./eip3009/facilitator";
import { reconcileOnce } from "./reconciler";

const SECRET = "fake-upstream-secret-0123456789";
const LEASE_SECONDS = 5;
const AAPL = "/api/v1/aggregates/AAPL?from=2024-03-01&to=2024-03-29";
let chain: TestChain;
let upstream: FakeUpstream;
let seller: GatewaySeller;

const usdc = (address: string) => usdcBalance(chain.rpcUrl, address);

type Paid = { headers: Record<string, string>; paymentId: string };

/** A fresh 402 paid on `rail` with its official client: the proof headers and the challenge's payment id. */
async function proofFor(rail: "x402" | "mpp", payerIndex: number): Promise<Paid> {
  const res = await callGateway(seller.host, AAPL);
  expect(res.status).toBe(402);
  const paymentId = (await res.clone().json()).payment.id as string;
  return { headers: await payOn(rail, res, payerIndex), paymentId };
}

/** Run one paid call in a child process that dies at `fault`. */
function crashAt(fault: "exit_after_lock" | "exit_after_outbox", proof: Pick<Paid, "headers">): Promise<number | null> {
  const tsx = path.join(process.cwd(), "node_modules", "tsx", "dist", "cli.mjs");
  const child = spawn(process.execPath, [tsx, "--conditions=react-server", path.join(import.meta.dirname, "..", "testing", "crash-child.ts")], {
    env: {
      ...process.env,
      NODE_ENV: "test",
      GATEWAY_FAULT: fault,
      PAYMENT_LEASE_SECONDS: String(LEASE_SECONDS),
      CRASH_HOST: seller.host,
      CRASH_PATH: AAPL,
      CRASH_PROOF_HEADERS: JSON.stringify(proof.headers),
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout.on("data", (d) => (out += d));
  child.stderr.on("data", (d) => (out += d));
  return new Promise((resolve) => child.on("exit", (code) => (code === 86 ? resolve(code) : (console.error(out), resolve(code)))));
}

async function paymentFor(proof: Paid) {
  return db.payment.findUniqueOrThrow({ where: { id: proof.paymentId } });
}

/** The same request again, with the same proof (an agent that lost the answer). */
const retry = (proof: Pick<Paid, "headers">) =>
  gatewayRoute.GET(new Request(`http://${seller.host}${AAPL}`, { headers: { ...proof.headers, host: seller.host } }), { params: Promise.resolve({}) });

const waitForLease = () => new Promise((r) => setTimeout(r, LEASE_SECONDS * 1000 + 300));

useGatewayStack(SECRET, (s) => ({ chain, upstream, seller } = s));

describe.each(["x402", "mpp"] as const)("settlement reconciler, %s", (rail) => {
  it("killed after verify+lock (before the upstream answered): the payment is released, nothing is charged", async () => {
    const payer = anvilAddress(8);
    const before = await usdc(payer);
    const proof = await proofFor(rail, 8);
    expect(await crashAt("exit_after_lock", proof)).toBe(86);
    let payment = await paymentFor(proof);
    expect(payment.status).toBe("verified");
    // Within the lease the payment belongs to its (possibly still running) instance: nothing happens.
    expect((await reconcileOnce()).releasedIds).not.toContain(payment.id);
    await waitForLease();
    await Promise.all([reconcileOnce(), reconcileOnce()]);
    payment = await paymentFor(proof);
    expect(payment.status).toBe("released");
    expect(await db.settlement.count({ where: { paymentId: payment.id } })).toBe(0);
    expect(await db.ledgerEntry.count({ where: { paymentId: payment.id } })).toBe(0);
    expect(await usdc(payer)).toBe(before);
    expect(payment.rail).toBe(rail);
    const replay = await gatewayRoute.GET(new Request(`http://${seller.host}${AAPL}`, { headers: { ...proof.headers, host: seller.host } }), {
      params: Promise.resolve({}),
    });
    expect(replay.status).toBe(409);
    expect((await replay.json()).error).toBe("payment_released");
  }, 30_000);

  it("killed after the decision to charge (outbox written): the payment is settled exactly once", async () => {
    const payer = anvilAddress(9);
    const before = await usdc(payer);
    const proof = await proofFor(rail, 9);
    expect(await crashAt("exit_after_outbox", proof)).toBe(86);
    expect((await paymentFor(proof)).status).toBe("verified");
    await waitForLease();
    const reports = await Promise.all([reconcileOnce(), reconcileOnce(), reconcileOnce()]);
    // Other test files share the database (and leave their own crashed work): count this payment only.
    const id = (await paymentFor(proof)).id;
    expect(reports.flatMap((r) => r.settledIds).filter((x) => x === id)).toHaveLength(1);
    expect(reports.flatMap((r) => r.releasedIds)).not.toContain(id);
    const payment = await paymentFor(proof);
    expect(payment.status).toBe("settled");
    expect(payment.transaction).toMatch(/^0x/);
    expect(await db.ledgerEntry.count({ where: { paymentId: payment.id } })).toBe(1);
    expect(await usdc(payer)).toBe(before - 20_000n);
    await reconcileOnce();
    expect(await usdc(payer)).toBe(before - 20_000n);
    // Charged, never delivered: the same request with the same proof now delivers (resumable delivery), however many
    // copies arrive at once, and charges nothing more.
    const callsBefore = upstream.state.calls;
    const retries = await Promise.all(Array.from({ length: 20 }, () => retry(proof)));
    for (const r of retries) {
      expect(r.status).toBe(200);
      expect(r.headers.get("svc-payment-id")).toBe(id);
      expect(r.headers.get("svc-billing")).toMatch(new RegExp(`rail=${rail};.*status=charged; replay=true; charged_at=.*; tx=${payment.transaction}`));
    }
    // Issue 33: served the answer kept before the crash (it was kept before the charge was decided): no upstream call
    // at all (it was one per retry).
    expect(upstream.state.calls - callsBefore).toBe(0);
    expect(await usdc(payer)).toBe(before - 20_000n);
    expect(await db.ledgerEntry.count({ where: { paymentId: id } })).toBe(1);
    expect(await db.settlement.count({ where: { paymentId: id } })).toBe(1);
  }, 30_000);

  it("killed after the decision to charge: a retry before the reconciler ran is told to wait, not charged again", async () => {
    const proof = await proofFor(rail, 9);
    expect(await crashAt("exit_after_outbox", proof)).toBe(86);
    const early = await retry(proof);
    expect(early.status).toBe(409);
    expect((await early.json()).error).toBe("payment_in_progress");
    await waitForLease();
    await reconcileOnce();
    const late = await retry(proof);
    expect(late.status).toBe(200);
    expect(late.headers.get("svc-billing")).toContain("replay=true");
  }, 30_000);

  it("killed after broadcasting but before recording: the reconciler records the earlier transaction instead of sending again", async () => {
    const payer = anvilAddress(9);
    const before = await usdc(payer);
    const proof = await proofFor(rail, 9);
    expect(await crashAt("exit_after_outbox", proof)).toBe(86);
    const payment = await paymentFor(proof);
    // What the dead process had already done: the transfer is on chain, the database does not know.
    const { payload, requirements } = facilitatorInput(payment, payment.railData as unknown as StoredProof);
    const sent = await getFacilitator().settle(payload, requirements);
    expect(sent.type).toBe("settled");
    await waitForLease();
    const report = await reconcileOnce();
    expect(report.settledIds).toEqual(expect.arrayContaining([payment.id]));
    const after = await db.payment.findUniqueOrThrow({ where: { id: payment.id } });
    expect(after.status).toBe("settled");
    expect(after.transaction).toBe(sent.type === "settled" ? sent.transaction : "");
    expect(await usdc(payer)).toBe(before - 20_000n);
    const fate = await authorizationFate(chain.rpcUrl, USDC_ADDRESS, payer, (payment.railData as unknown as StoredProof).authorization.nonce as `0x${string}`);
    expect(fate).toEqual({ used: true, transaction: after.transaction });
  }, 30_000);
});

describe("settlement reconciler, credits", () => {
  it("killed between the reservation and its capture: the reservation is released after its lease, the credit is back", async () => {
    const store = routedStore(seller.host);
    const agent = await registerAnonymous(store);
    const plan = await db.plan.findFirstOrThrow({ where: { sellerId: seller.sellerId, slug: "research-credits" } });
    const buy = (headers: Record<string, string>) =>
      purchaseRoute.POST(
        new Request(`http://${seller.host}/plans/${plan.id}/purchase`, {
          method: "POST",
          headers: { host: seller.host, "content-type": "application/json", authorization: `Bearer ${agent.token}`, ...headers },
          body: JSON.stringify({ amountUsd: "5.00" }),
        }),
        { params: Promise.resolve({ planId: plan.id }) },
      );
    expect((await buy(await payChallenge(await buy({}), 7, { maxAmountPerPayment: "$10" }))).status).toBe(200);
    const balance = async () => (await db.creditGrant.findFirstOrThrow({ where: { credentialId: agent.credentialId } })).remainingMicros;
    expect(await balance()).toBe(5_000_000n);

    expect(await crashAt("exit_after_lock", { headers: { authorization: `Bearer ${agent.token}` } })).toBe(86);
    const held = await db.payment.findFirstOrThrow({ where: { credentialId: agent.credentialId, rail: "credits" } });
    expect(held.status).toBe("verified");
    expect(await balance()).toBe(5_000_000n - 20_000n);
    expect((await reconcileOnce()).releasedIds).not.toContain(held.id);
    await waitForLease();
    const reports = await Promise.all([reconcileOnce(), reconcileOnce()]);
    expect(reports.flatMap((r) => r.releasedIds).filter((x) => x === held.id)).toHaveLength(1);
    expect((await db.payment.findUniqueOrThrow({ where: { id: held.id } })).status).toBe("released");
    expect(await balance()).toBe(5_000_000n);
  }, 30_000);
});
