// Delivery before inclusion (issue 24): on a chain that takes its time to include a transaction, a wallet-paid answer
// goes out once the settlement is durably queued and signed, and the transaction lands in the background, within the
// seller's cap per payer wallet. The chain here mines only when a test says so (`evm_mine`), so "in flight" is exact.
// The worst case: a payer empties its wallet while its calls are in flight; the seller's loss stays within the cap,
// and every answer that went out is either settled or recorded as an unpaid delivery.
import { decodePaymentResponseHeader } from "@x402/core/http";
import { Receipt } from "mppx";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { anvilAddress, anvilPrivateKey, setBlockTime } from "../../scripts/lib/local-chain";
import { publicClient, walletClient } from "../chain/clients";
import { encodeFunctionData } from "viem";
import { CHAIN_ID, USDC_ADDRESS } from "../chain/config";
import { signEip1559Transaction } from "../chain/sign-transaction";
import { TOKEN_ABI } from "../chain/token";
import { db } from "../db/client";
import { callGateway, payOn, usdcBalance, useGatewayStack, type FakeUpstream, type GatewaySeller, type TestChain } from "../testing/gateway";
import { getPaymentDetail } from "../payment-reports/get-payment-detail";
import { listSellerPayments } from "../payment-reports/list-seller-payments";
import { getFacilitator, setFacilitatorForTests } from "./eip3009/facilitator";
import { reconcileOnce } from "./reconciler";
import { setInclusionEstimateForTests } from "./settle-payment";
import { resetEnvForTests } from "../env";

let chain: TestChain;
let upstream: FakeUpstream;
let seller: GatewaySeller;
const SECRET = "fake-upstream-secret-0123456789";
const AAPL = "/api/v1/aggregates/AAPL?from=2024-01-02&to=2024-01-31";
const PRICE = 20_000n;

const call = (headers: Record<string, string> = {}) => callGateway(seller.host, AAPL, { headers });

async function rpc(method: string, params: unknown[] = []): Promise<unknown> {
  const res = await fetch(chain.rpcUrl, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
  const body = (await res.json()) as { result?: unknown; error?: { message: string } };
  if (body.error) throw new Error(body.error.message);
  return body.result;
}

/** Mine until nothing is pending (the gas wallet's transfers and anything else sent). */
async function mineAll(): Promise<void> {
  for (let i = 0; i < 5; i++) {
    await rpc("evm_mine");
    const pending = (await rpc("eth_getBlockByNumber", ["pending", false])) as { transactions: string[] } | null;
    if (!pending || pending.transactions.length === 0) return;
  }
}

async function setCap(micros: bigint): Promise<void> {
  await db.sellerSettings.upsert({
    where: { sellerId: seller.sellerId },
    create: { sellerId: seller.sellerId, unsettledCapMicros: micros },
    update: { unsettledCapMicros: micros },
  });
}

/** Leave `wallet` (one of the chain's funded payers) exactly `micros` of USDC, sending the rest to payer 8. */
async function leaveBalance(payerIndex: number, micros: bigint): Promise<void> {
  const wallet = anvilAddress(payerIndex);
  const extra = (await usdcBalance(chain.rpcUrl, wallet)) - micros;
  if (extra <= 0n) throw new Error("payer has too little");
  const hash = await walletClient(chain.rpcUrl, anvilPrivateKey(payerIndex)).writeContract({
    address: USDC_ADDRESS,
    abi: TOKEN_ABI,
    functionName: "transfer",
    args: [anvilAddress(8), extra],
  });
  await mineAll();
  await publicClient(chain.rpcUrl).waitForTransactionReceipt({ hash, pollingInterval: 20 });
}

async function settleEverything(): Promise<void> {
  // Background settlements end as soon as their block is mined; anything left pending is the reconciler's.
  await mineAll();
  for (let i = 0; i < 100; i++) {
    const open = await db.settlement.count({ where: { payment: { sellerId: seller.sellerId }, status: "pending" } });
    if (open === 0) return;
    await db.settlement.updateMany({ where: { status: "pending" }, data: { claimedUntil: new Date(0), nextAttemptAt: new Date(0) } });
    await reconcileWhileMining();
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error("settlements still pending");
}

/** A reconciler pass, mining meanwhile: its settlements wait for their block. */
async function reconcileWhileMining(): Promise<void> {
  let done = false;
  const pass = reconcileOnce().finally(() => (done = true));
  while (!done) {
    await mineAll();
    await new Promise((r) => setTimeout(r, 50));
  }
  await pass;
}

// Delivery before inclusion is on in production ("auto"), off in the other tests' environment.
let deliverBeforeInclusion: string | undefined;
beforeAll(() => {
  deliverBeforeInclusion = process.env.DELIVER_BEFORE_INCLUSION;
  process.env.DELIVER_BEFORE_INCLUSION = "auto";
  resetEnvForTests();
});
afterAll(() => {
  if (deliverBeforeInclusion === undefined) delete process.env.DELIVER_BEFORE_INCLUSION;
  else process.env.DELIVER_BEFORE_INCLUSION = deliverBeforeInclusion;
  resetEnvForTests();
});

useGatewayStack(SECRET, (s) => ({ chain, upstream, seller } = s), { ownChain: "blocks are mined only when a test says so" });

beforeAll(async () => {
  // Blocks only when a test mines one: a transfer stays in flight until then.
  await rpc("evm_setAutomine", [false]);
}, 60_000);

afterAll(async () => {
  await setBlockTime(chain.rpcUrl, 0).catch(() => {});
});

beforeEach(async () => {
  // The gateway has seen this chain take a block's time to include its settlements.
  setInclusionEstimateForTests(2_000);
  await setCap(100_000n);
});

describe.each(["x402", "mpp"] as const)("on a chain that takes a block to include (%s)", (rail) => {
  it("answers before inclusion, with the signed transaction as submitted, and settles in the background", async () => {
    const payer = rail === "x402" ? 1 : 2;
    const proof = await payOn(rail, await call(), payer);
    const res = await call(proof);
    expect(res.status).toBe(200);
    const id = res.headers.get("svc-payment-id")!;
    // Not yet included: the payment is still held, its settlement queued and marked as delivered first.
    const before = await db.payment.findUniqueOrThrow({ where: { id }, include: { settlement: true } });
    expect(before.status).toBe("verified");
    expect(before.settlement).toMatchObject({ status: "pending", deliveredFirst: true });
    expect(res.headers.get("svc-billing")).toContain("status=settlement_pending");
    const tx = /tx=(0x[0-9a-f]{64})/.exec(res.headers.get("svc-billing") ?? "")?.[1];
    expect(tx).toMatch(/^0x[0-9a-f]{64}$/);
    if (rail === "x402") {
      const receipt = decodePaymentResponseHeader(res.headers.get("payment-response")!);
      expect(receipt).toMatchObject({ success: false, errorReason: "settlement_pending", transaction: tx });
    } else {
      const receipt = Receipt.deserialize(res.headers.get("payment-receipt")!) as Record<string, unknown>;
      expect(receipt).toMatchObject({ status: "success", reference: tx, settlement: "pending" });
    }
    const exposure = await db.payerExposure.findUniqueOrThrow({
      where: { sellerId_payer: { sellerId: seller.sellerId, payer: anvilAddress(payer).toLowerCase() } },
    });
    expect(exposure.outstandingMicros).toBe(PRICE);

    await settleEverything();
    const after = await db.payment.findUniqueOrThrow({ where: { id }, include: { settlement: true } });
    expect(after).toMatchObject({ status: "consumed", transaction: tx });
    expect(await db.ledgerEntry.count({ where: { paymentId: id, kind: "charge" } })).toBe(1);
    expect(
      (await db.payerExposure.findUniqueOrThrow({ where: { sellerId_payer: { sellerId: seller.sellerId, payer: anvilAddress(payer).toLowerCase() } } }))
        .outstandingMicros,
    ).toBe(0n);
  });
});

it("waits for inclusion beyond the cap: of many concurrent calls by one wallet, only the cap's worth goes out first", async () => {
  await setCap(3n * PRICE);
  const payer = 3;
  const proofs = [];
  for (let i = 0; i < 12; i++) proofs.push(await payOn("x402", await call(), payer));
  const responses = proofs.map((p) => call(p));
  // The first answers are the delivered-first ones; the rest are waiting on a block that is not mined yet.
  await new Promise((r) => setTimeout(r, 1_500));
  const first = await db.settlement.count({
    where: { payment: { sellerId: seller.sellerId, payer: anvilAddress(payer).toLowerCase() }, deliveredFirst: true },
  });
  expect(first).toBe(3);
  await mineAll();
  const done = await Promise.all(responses);
  for (const r of done) expect(r.status).toBe(200);
  const billing = done.map((r) => r.headers.get("svc-billing") ?? "");
  expect(billing.filter((b) => b.includes("status=settlement_pending"))).toHaveLength(3);
  expect(billing.filter((b) => b.includes("status=charged"))).toHaveLength(9);
  await settleEverything();
  expect(await db.payment.count({ where: { sellerId: seller.sellerId, payer: anvilAddress(payer).toLowerCase(), status: "consumed" } })).toBe(12);
});

it("worst case: a payer empties its wallet while its calls are in flight; the loss stays within the cap and every delivery is settled or unpaid", async () => {
  const cap = 3n * PRICE;
  await setCap(cap);
  const payer = 4;
  const wallet = anvilAddress(payer).toLowerCase();
  // Enough for ten calls: each proof verifies against the chain on its own, and twenty are sent at once.
  await leaveBalance(payer, 10n * PRICE);
  const proofs = [];
  for (let i = 0; i < 20; i++) proofs.push(await payOn(rail(i), await call(), payer));
  const callsBefore = upstream.state.calls;
  const inFlight = proofs.map((p) => call(p));
  // Once the delivered-first answers are out (their transfers signed and sent, none mined), the payer moves everything
  // away with a higher tip, so its transfer is ordered first in the next block.
  for (let i = 0; i < 100; i++) {
    if ((await db.settlement.count({ where: { payment: { sellerId: seller.sellerId, payer: wallet } } })) >= 20) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  // Signed here and sent raw: a wallet client would estimate it against the pending block, where the gateway's transfers
  // already spent the balance.
  const balance = await usdcBalance(chain.rpcUrl, anvilAddress(payer));
  const nonce = await publicClient(chain.rpcUrl).getTransactionCount({ address: anvilAddress(payer), blockTag: "pending" });
  await rpc("eth_sendRawTransaction", [
    signEip1559Transaction(anvilPrivateKey(payer), {
      type: "eip1559",
      chainId: CHAIN_ID,
      nonce,
      to: USDC_ADDRESS,
      data: encodeFunctionData({ abi: TOKEN_ABI, functionName: "transfer", args: [anvilAddress(8), balance] }),
      gas: 100_000n,
      maxPriorityFeePerGas: 50_000_000_000n,
      maxFeePerGas: 100_000_000_000n,
    }),
  ]);
  await mineAll();
  const responses = await Promise.all(inFlight);
  await settleEverything();

  const payments = await db.payment.findMany({ where: { sellerId: seller.sellerId, payer: wallet }, include: { settlement: true } });
  expect(payments).toHaveLength(20);
  const byId = new Map(payments.map((p) => [p.id, p]));
  let unpaid = 0n;
  let served = 0;
  for (const r of responses) {
    const p = byId.get(r.headers.get("svc-payment-id")!)!;
    if (r.status === 200) {
      served++;
      // An answer that went out is either paid for, or recorded as delivered and unpaid.
      if (p.status === "consumed") expect(await db.ledgerEntry.count({ where: { paymentId: p.id, kind: "charge" } })).toBe(1);
      else {
        expect(p.status).toBe("failed");
        expect(p.settlement?.deliveredFirst).toBe(true);
        unpaid += p.amountMicros;
      }
    } else {
      // A call that waited for inclusion and did not settle was not served as paid.
      expect(p.status).toBe("failed");
      expect(p.settlement?.deliveredFirst).toBe(false);
    }
  }
  expect(upstream.state.calls - callsBefore).toBe(20);
  expect(unpaid).toBeGreaterThan(0n);
  expect(unpaid).toBeLessThanOrEqual(cap);
  expect(served).toBeGreaterThan(0);
  const exposure = await db.payerExposure.findUniqueOrThrow({ where: { sellerId_payer: { sellerId: seller.sellerId, payer: wallet } } });
  expect(exposure.outstandingMicros).toBe(0n);
  expect(exposure.unpaidAt).not.toBeNull();
  // The console shows each unpaid delivery, in the list and on the payment's page, and nothing else as one.
  const listed = (await listSellerPayments(seller.sellerId, { limit: 100 })).payments.filter((p) => p.payer === wallet);
  const unpaidIds = payments.filter((p) => p.status === "failed" && p.settlement?.deliveredFirst).map((p) => p.id);
  expect(
    listed
      .filter((p) => p.unpaidDelivery)
      .map((p) => p.id)
      .sort(),
  ).toEqual([...unpaidIds].sort());
  expect((await getPaymentDetail(seller.sellerId, unpaidIds[0]!)).unpaidDelivery).toBe(true);

  // From now on this wallet waits for inclusion, whatever its balance.
  await walletClient(chain.rpcUrl, anvilPrivateKey(8)).writeContract({
    address: USDC_ADDRESS,
    abi: TOKEN_ABI,
    functionName: "transfer",
    args: [anvilAddress(payer), PRICE],
  });
  await mineAll();
  const later = call(await payOn("x402", await call(), payer));
  await new Promise((r) => setTimeout(r, 500));
  await mineAll();
  const res = await later;
  expect(res.status).toBe(200);
  expect(res.headers.get("svc-billing")).toContain("status=charged");
  const last = await db.payment.findUniqueOrThrow({ where: { id: res.headers.get("svc-payment-id")! }, include: { settlement: true } });
  expect(last).toMatchObject({ status: "consumed", settlement: { deliveredFirst: false } });
}, 60_000);

// Issue 33: the per-wallet cap bounds nothing on its own, since wallets cost nothing. Twenty fresh wallets, each funded
// for two calls and emptied while those calls are in flight: without a bound across wallets the seller could lose
// twenty caps; with it, at most the seller-wide cap, and the calls past it wait for inclusion.
it("twenty fresh wallets emptied while their calls are in flight: what the seller delivers unpaid stays within the seller-wide cap", async () => {
  const sellerCap = 5n * PRICE;
  await setCap(2n * PRICE);
  await db.sellerSettings.update({ where: { sellerId: seller.sellerId }, data: { sellerUnsettledCapMicros: sellerCap } });
  try {
    const fresh = Array.from({ length: 20 }, (_, i) => 20 + i);
    const minter = walletClient(chain.rpcUrl, anvilPrivateKey(0));
    for (const i of fresh) {
      await rpc("anvil_setBalance", [anvilAddress(i), "0x8AC7230489E80000"]);
      await minter.writeContract({ address: USDC_ADDRESS, abi: TOKEN_ABI, functionName: "mint", args: [anvilAddress(i), 2n * PRICE] });
    }
    await mineAll();
    const proofs: Record<string, string>[] = [];
    for (const i of fresh) for (let k = 0; k < 2; k++) proofs.push(await payOn(rail(k), await call(), i));
    const wallets = fresh.map((i) => anvilAddress(i).toLowerCase());
    const mine = { sellerId: seller.sellerId, payer: { in: wallets } };
    const inFlight = proofs.map((p) => call(p));
    for (let i = 0; i < 200; i++) {
      if ((await db.settlement.count({ where: { payment: mine } })) >= proofs.length) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    // Everything the seller answered before inclusion is within the seller-wide cap, whatever each wallet's cap allows.
    const exposure = await db.sellerExposure.findUniqueOrThrow({ where: { sellerId: seller.sellerId } });
    expect(exposure.outstandingMicros).toBeLessThanOrEqual(sellerCap);
    expect(await db.settlement.count({ where: { payment: mine, deliveredFirst: true } })).toBeLessThanOrEqual(5);
    // Each wallet now moves its balance away with a higher tip: its transfer is ordered before the gateway's.
    for (const i of fresh) {
      const nonce = await publicClient(chain.rpcUrl).getTransactionCount({ address: anvilAddress(i), blockTag: "pending" });
      await rpc("eth_sendRawTransaction", [
        signEip1559Transaction(anvilPrivateKey(i), {
          type: "eip1559",
          chainId: CHAIN_ID,
          nonce,
          to: USDC_ADDRESS,
          data: encodeFunctionData({ abi: TOKEN_ABI, functionName: "transfer", args: [anvilAddress(8), 2n * PRICE] }),
          gas: 100_000n,
          maxPriorityFeePerGas: 50_000_000_000n,
          maxFeePerGas: 100_000_000_000n,
        }),
      ]);
    }
    await mineAll();
    const responses = await Promise.all(inFlight);
    await settleEverything();
    const payments = await db.payment.findMany({ where: mine, include: { settlement: true } });
    expect(payments).toHaveLength(40);
    const byId = new Map(payments.map((p) => [p.id, p]));
    let unpaid = 0n;
    let served = 0;
    for (const r of responses) {
      if (r.status !== 200) {
        // Not delivered: a settlement that failed while the call waited, or an answer held back past the caps.
        expect((await r.json()).error).toMatch(/^(settlement_failed|payment_provider_unavailable)$/);
        continue;
      }
      served++;
      const p = byId.get(r.headers.get("svc-payment-id")!)!;
      // An answer that went out is paid for, or counted as delivered before inclusion (so within the caps) and unpaid.
      if (p.status !== "consumed") {
        expect(p).toMatchObject({ status: "failed", settlement: { deliveredFirst: true } });
        unpaid += p.amountMicros;
      }
    }
    expect(served).toBeGreaterThan(0);
    expect(unpaid).toBeGreaterThan(0n);
    expect(unpaid).toBeLessThanOrEqual(sellerCap);
    // Every exposure ended with its settlement: nothing outstanding, per wallet or in all.
    expect((await db.sellerExposure.findUniqueOrThrow({ where: { sellerId: seller.sellerId } })).outstandingMicros).toBe(0n);
    const left = await db.payerExposure.aggregate({ where: { sellerId: seller.sellerId }, _sum: { outstandingMicros: true } });
    expect(left._sum.outstandingMicros ?? 0n).toBe(0n);
  } finally {
    await db.sellerSettings.update({ where: { sellerId: seller.sellerId }, data: { sellerUnsettledCapMicros: null } });
  }
}, 120_000);

/** Half the worst case's calls on each wallet rail. */
function rail(i: number): "x402" | "mpp" {
  return i % 2 === 0 ? "x402" : "mpp";
}

it("a charge that never lands after delivery (the instance died once it was signed) is the reconciler's: it ends consumed, the exposure back to zero", async () => {
  const payer = 5;
  const wallet = anvilAddress(payer).toLowerCase();
  const real = getFacilitator();
  // Signed, then the process "dies": nothing is broadcast and no outcome is recorded.
  setFacilitatorForTests({
    kind: real.kind,
    verify: (payload, requirements) => real.verify(payload, requirements),
    supported: () => real.supported(),
    settle: (_payload, _requirements, opts) => {
      opts?.onSubmitted?.(`0x${"ab".repeat(32)}`);
      return new Promise(() => {});
    },
  });
  let res: Response;
  try {
    res = await call(await payOn("x402", await call(), payer));
  } finally {
    setFacilitatorForTests(undefined);
  }
  expect(res.status).toBe(200);
  const id = res.headers.get("svc-payment-id")!;
  expect(await db.settlement.findUniqueOrThrow({ where: { paymentId: id } })).toMatchObject({ status: "pending", deliveredFirst: true });
  expect((await db.payerExposure.findUniqueOrThrow({ where: { sellerId_payer: { sellerId: seller.sellerId, payer: wallet } } })).outstandingMicros).toBe(PRICE);

  // The lease runs out; the reconciler asks the chain (not used), submits it, and records the charge as delivered.
  await db.settlement.updateMany({ where: { paymentId: id }, data: { claimedUntil: new Date(0), nextAttemptAt: new Date(0) } });
  await reconcileWhileMining();
  const p = await db.payment.findUniqueOrThrow({ where: { id } });
  expect(p.status).toBe("consumed");
  expect(p.transaction).toMatch(/^0x[0-9a-f]{64}$/);
  expect(await db.ledgerEntry.count({ where: { paymentId: id, kind: "charge" } })).toBe(1);
  expect((await db.payerExposure.findUniqueOrThrow({ where: { sellerId_payer: { sellerId: seller.sellerId, payer: wallet } } })).outstandingMicros).toBe(0n);
});
