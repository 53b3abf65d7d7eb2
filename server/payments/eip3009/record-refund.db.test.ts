// Refunds recorded from the console, against real PostgreSQL and a real anvil chain: payments are paid and
// settled by the official x402 client through the gateway, the seller sends the refund from the payTo wallet
// (anvil account 10) with a plain USDC transfer, and the console's tRPC procedure records it. Every refusal is
// checked to write nothing; the races run for real, in parallel.
import { randomBytes } from "node:crypto";
import solc from "solc";
import { createTestClient, createWalletClient, http, maxUint256, publicActions, type Abi, type Address, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import * as statusRoute from "../../../app/payments/[id]/route";
import { anvilAddress, anvilPrivateKey } from "../../../scripts/lib/local-chain";
import { CHAIN, USDC_ADDRESS } from "../../chain/config";
import { TOKEN_ABI } from "../../chain/token";
import { db } from "../../db/client";
import { withEnvForTests } from "../../env";
import {
  callGateway,
  createGatewaySeller,
  payChallenge,
  startChainForTests,
  startFakeUpstream,
  usdcBalance,
  type TestChain,
  type FakeUpstream,
} from "../../testing/gateway";
import { paymentStatusResponse } from "../../contracts/payment-status";
import { createCaller, sessionFor } from "../../testing/trpc";

const SECRET = "fake-upstream-secret-0123456789";
const PAY_TO = anvilAddress(10);
const AAPL = "/api/v1/aggregates/AAPL?from=2024-01-02&to=2024-01-31";
const PRICE = 20_000n;

let chain: TestChain;
let upstream: FakeUpstream;
type Seller = { sellerId: string; host: string; userId: string };
let a: Seller;
let b: Seller;

async function seller(): Promise<Seller> {
  const s = await createGatewaySeller(upstream.url, { signingSecret: SECRET });
  const user = await db.sellerUser.findFirstOrThrow({ where: { sellerId: s.sellerId } });
  return { ...s, userId: user.id };
}

const asSeller = (s: Seller) => createCaller(sessionFor(s.userId, s.sellerId));

function call(host: string, path: string, headers: Record<string, string> = {}): Promise<Response> {
  return callGateway(host, path, { headers });
}

/** A real paid call: the official client signs the 402's offer, the gateway verifies, proxies and settles on chain. */
async function pay(s: Seller, payerIndex: number): Promise<{ id: string; proof: Record<string, string>; payer: Address }> {
  const proof = await payChallenge(await call(s.host, AAPL), payerIndex);
  const res = await call(s.host, AAPL, proof);
  expect(res.status).toBe(upstream.state.mode.status);
  return { id: res.headers.get("svc-payment-id")!, proof, payer: anvilAddress(payerIndex) };
}

function wallet(index: number) {
  return createWalletClient({ account: privateKeyToAccount(anvilPrivateKey(index)), chain: CHAIN, transport: http(chain.rpcUrl) }).extend(publicActions);
}

/** A USDC transfer sent from anvil account `fromIndex` (10 = the sellers' payTo), mined. */
async function transfer(to: Address, value: bigint, fromIndex = 10, opts: { gas?: bigint; wait?: boolean } = {}): Promise<Hex> {
  const w = wallet(fromIndex);
  const hash = await w.writeContract({
    address: USDC_ADDRESS,
    abi: TOKEN_ABI,
    functionName: "transfer",
    args: [to, value],
    ...(opts.gas ? { gas: opts.gas } : {}),
  });
  if (opts.wait !== false) await w.waitForTransactionReceipt({ hash, pollingInterval: 10 });
  return hash;
}

const usdc = (address: Address) => usdcBalance(chain.rpcUrl, address);

/** What a refusal must leave untouched: the payment's state, and every ledger and audit row of both sellers. */
async function snapshot(paymentId: string) {
  const sellerIds = [a.sellerId, b.sellerId];
  return {
    status: (await db.payment.findUnique({ where: { id: paymentId } }))?.status ?? null,
    ledger: await db.ledgerEntry.findMany({ where: { sellerId: { in: sellerIds } }, orderBy: { id: "asc" } }),
    audit: await db.auditLog.count({ where: { sellerId: { in: sellerIds } } }),
  };
}

/** The call is refused with `trpcCode` and AppError `appCode` whose detail matches `detail`, and nothing is written. */
async function expectRefused(s: Seller, paymentId: string, transaction: string, want: { trpcCode: string; appCode: string; detail: RegExp }) {
  const before = await snapshot(paymentId);
  const err = await asSeller(s)
    .payments.refund({ paymentId, transaction })
    .then(
      () => null,
      (e: unknown) => e as { code: string; message: string; cause?: { code?: string; detail?: string } },
    );
  expect(err, "the refund should have been refused").not.toBeNull();
  expect(err!.code).toBe(want.trpcCode);
  expect(err!.cause?.code).toBe(want.appCode);
  expect(err!.message).toMatch(want.detail);
  expect(await snapshot(paymentId)).toEqual(before);
}

// One transaction refunding several payments: a batch sender moving the seller's USDC (after an approval) to one
// payer in several transfers, so the transaction has one Transfer log per payment.
const BATCH_SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.0;
interface IERC20 { function transferFrom(address from, address to, uint256 value) external returns (bool); }
contract BatchRefund {
  function send(address token, address to, uint256[] calldata values) external {
    for (uint256 i = 0; i < values.length; i++) require(IERC20(token).transferFrom(msg.sender, to, values[i]));
  }
}`;

/** Compile (solc-js, offline) and deploy the batch sender; payTo approves it. Returns its address and ABI. */
async function deployBatchRefund(): Promise<{ address: Address; abi: Abi }> {
  const input = {
    language: "Solidity",
    sources: { "BatchRefund.sol": { content: BATCH_SOURCE } },
    settings: { evmVersion: "cancun", outputSelection: { "*": { "*": ["abi", "evm.bytecode.object"] } } },
  };
  const out = JSON.parse(solc.compile(JSON.stringify(input)));
  const c = out.contracts["BatchRefund.sol"].BatchRefund;
  const w = wallet(10);
  const deploy = await w.deployContract({ abi: c.abi, bytecode: `0x${c.evm.bytecode.object}` });
  const address = (await w.waitForTransactionReceipt({ hash: deploy, pollingInterval: 10 })).contractAddress!;
  const approve = await w.writeContract({ address: USDC_ADDRESS, abi: TOKEN_ABI, functionName: "approve", args: [address, maxUint256] });
  await w.waitForTransactionReceipt({ hash: approve, pollingInterval: 10 });
  return { address, abi: c.abi };
}

const randomHash = () => `0x${randomBytes(32).toString("hex")}` as Hex;

beforeAll(async () => {
  // A chain of its own: one test turns automine off to hold a transfer unmined.
  chain = await startChainForTests({ ownChain: "a test turns automine off" });
  upstream = await startFakeUpstream(SECRET);
  // Two sellers with the same payTo wallet (anvil account 10): the transfer-reuse and scoping checks must not
  // rely on wallets being distinct.
  a = await seller();
  b = await seller();
  // Headroom for refunds larger than what the payments brought in.
  const mint = await wallet(0).writeContract({ address: USDC_ADDRESS, abi: TOKEN_ABI, functionName: "mint", args: [PAY_TO, 10_000_000n] });
  await wallet(0).waitForTransactionReceipt({ hash: mint, pollingInterval: 10 });
}, 60_000);

afterAll(async () => {
  await upstream?.stop();
  await chain?.stop();
});

describe("recording a refund", () => {
  it("moves the payment to refunded with a ledger refund row and an audit row; revenue drops; status and replay say refunded", async () => {
    const p = await pay(a, 1);
    const totalsBefore = await asSeller(a).payments.totals();
    const payerBefore = await usdc(p.payer);
    const hash = await transfer(p.payer, PRICE);
    expect(await usdc(p.payer)).toBe(payerBefore + PRICE);

    const res = await asSeller(a).payments.refund({ paymentId: p.id, transaction: hash });
    expect(res).toMatchObject({ paymentId: p.id, status: "refunded", amountUsd: "0.020000", transaction: hash, alreadyRecorded: false });
    expect(res.logIndex).toEqual(expect.any(Number));

    expect((await db.payment.findUniqueOrThrow({ where: { id: p.id } })).status).toBe("refunded");
    const ledger = await db.ledgerEntry.findMany({ where: { paymentId: p.id }, orderBy: { kind: "asc" } });
    expect(ledger).toMatchObject([
      { kind: "charge", amountMicros: PRICE, transaction: null, logIndex: null },
      { kind: "refund", amountMicros: PRICE, sellerId: a.sellerId, meterKey: "aggregates", units: 1, transaction: hash, logIndex: res.logIndex },
    ]);
    const audit = await db.auditLog.findMany({ where: { targetId: p.id } });
    expect(audit).toMatchObject([
      {
        sellerId: a.sellerId,
        actorId: a.userId,
        action: "payment.refund",
        targetType: "payment",
        before: { status: "consumed", amountMicros: "20000" },
        after: { status: "refunded", amountMicros: "20000", transferredMicros: "20000", transaction: hash, logIndex: res.logIndex },
      },
    ]);

    // Revenue is charges minus refunds: down by exactly the payment.
    const totals = await asSeller(a).payments.totals();
    expect(Number(totals.revenueUsd)).toBeCloseTo(Number(totalsBefore.revenueUsd) - 0.02, 6);
    expect(totals.refundedUsd).toBe("0.020000");
    expect(totals.chargedUsd).toBe(totalsBefore.chargedUsd);
    expect(totals.ledgerMatchesPayments).toBe(true);
    expect(totals.byStatus.find((s) => s.status === "refunded")!.count).toBe(1);
    const row = (await asSeller(a).payments.list({})).payments.find((r) => r.id === p.id)!;
    expect(row).toMatchObject({ status: "refunded", refundable: false, refundTransaction: hash });

    // GET /payments/{id} reports it, and the original proof replayed is refused as refunded.
    const status = await statusRoute.GET(new Request(`http://${a.host}/payments/${p.id}`, { headers: { host: a.host } }), {
      params: Promise.resolve({ id: p.id }),
    });
    const statusBody = await status.json();
    expect(paymentStatusResponse.parse(statusBody)).toEqual(statusBody);
    expect(statusBody).toMatchObject({
      id: p.id,
      status: "refunded",
      complete: false,
      refund: { amount: "0.020000", transaction: hash, log_index: res.logIndex, refunded_at: res.recordedAt },
    });
    const replay = await call(a.host, AAPL, p.proof);
    expect(replay.status).toBe(409);
    expect((await replay.json()).error).toBe("payment_refunded");

    // The same submission again (double click, retried request) returns the first result and writes nothing.
    const ledgerCount = await db.ledgerEntry.count();
    const again = await asSeller(a).payments.refund({ paymentId: p.id, transaction: hash.toUpperCase().replace("0X", "0x") });
    expect(again).toEqual({ ...res, alreadyRecorded: true });
    expect(await db.ledgerEntry.count()).toBe(ledgerCount);
    expect(await db.auditLog.count({ where: { targetId: p.id } })).toBe(1);
  });

  it("accepts a settled (not yet consumed) payment", async () => {
    const p = await pay(a, 2);
    await db.payment.update({ where: { id: p.id }, data: { status: "settled" } });
    const res = await asSeller(a).payments.refund({ paymentId: p.id, transaction: await transfer(p.payer, PRICE) });
    expect(res.status).toBe("refunded");
    expect((await db.auditLog.findFirstOrThrow({ where: { targetId: p.id } })).before).toMatchObject({ status: "settled" });
  });

  it("keeps the seller's reason in the audit row (not the ledger)", async () => {
    const p = await pay(a, 2);
    const res = await asSeller(a).payments.refund({ paymentId: p.id, transaction: await transfer(p.payer, PRICE), reason: "Duplicate payment" });
    expect(res.status).toBe("refunded");
    expect((await db.auditLog.findFirstOrThrow({ where: { targetId: p.id } })).after).toMatchObject({ status: "refunded", reason: "Duplicate payment" });
  });

  it("accepts a larger transfer but records the payment's amount (the excess is kept in the audit row only)", async () => {
    const p = await pay(a, 2);
    const hash = await transfer(p.payer, 50_000n);
    const res = await asSeller(a).payments.refund({ paymentId: p.id, transaction: hash });
    expect(res.amountUsd).toBe("0.020000");
    const refund = await db.ledgerEntry.findUniqueOrThrow({ where: { paymentId_kind_seq: { paymentId: p.id, kind: "refund", seq: 0 } } });
    expect(refund.amountMicros).toBe(PRICE);
    expect((await db.auditLog.findFirstOrThrow({ where: { targetId: p.id } })).after).toMatchObject({ amountMicros: "20000", transferredMicros: "50000" });
  });

  it("a transaction not mined yet is refused with 'try again after it is mined', and recorded once it is", async () => {
    const p = await pay(a, 3);
    const test = createTestClient({ chain: CHAIN, mode: "anvil", transport: http(chain.rpcUrl) });
    await test.setAutomine(false);
    let hash: Hex;
    try {
      hash = await transfer(p.payer, PRICE, 10, { wait: false });
      await expectRefused(a, p.id, hash, {
        trpcCode: "BAD_REQUEST",
        appCode: "invalid_request",
        detail: /not found on chain yet; try again after it is mined/,
      });
    } finally {
      await test.mine({ blocks: 1 });
      await test.setAutomine(true);
    }
    expect((await asSeller(a).payments.refund({ paymentId: p.id, transaction: hash })).status).toBe("refunded");
  });
});

describe("refusals write nothing", () => {
  // A fresh payment per case, so a wrongly accepted refund fails its own case only.
  let p: Awaited<ReturnType<typeof pay>>;
  beforeEach(async () => {
    p = await pay(a, 4);
  });

  const invalid = (detail: RegExp) => ({ trpcCode: "BAD_REQUEST", appCode: "invalid_request", detail });

  it("a malformed hash", async () => {
    await expectRefused(a, p.id, "0x1234", invalid(/transaction must be a transaction hash/));
  });

  it("a hash the chain does not know", async () => {
    await expectRefused(a, p.id, randomHash(), invalid(/not found on chain yet; try again after it is mined/));
  });

  it("a transfer from payTo to someone other than the payer", async () => {
    await expectRefused(a, p.id, await transfer(anvilAddress(7), PRICE), invalid(/no USDC transfer from 0x\w+ to the payment's payer/));
  });

  it("a smaller amount (partial refund)", async () => {
    await expectRefused(a, p.id, await transfer(p.payer, PRICE - 1n), invalid(/is \$0\.019999, less than the payment's \$0\.020000/));
  });

  it("a transfer of the amount to the payer from another wallet", async () => {
    await expectRefused(a, p.id, await transfer(p.payer, PRICE, 6), invalid(/no USDC transfer from the payment's payTo/));
  });

  it("a transaction that moved no USDC", async () => {
    const w = wallet(10);
    const hash = await w.sendTransaction({ to: p.payer, value: 1n });
    await w.waitForTransactionReceipt({ hash, pollingInterval: 10 });
    await expectRefused(a, p.id, hash, invalid(/moved no USDC/));
  });

  it("a reverted transaction", async () => {
    // More than payTo holds, with the gas given so the node mines it instead of refusing to estimate it.
    const hash = await transfer(p.payer, (await usdc(PAY_TO)) + 1n, 10, { gas: 100_000n });
    expect((await wallet(0).getTransactionReceipt({ hash })).status).toBe("reverted");
    await expectRefused(a, p.id, hash, invalid(/reverted on chain/));
  });

  it("a transfer mined before the payment was settled", async () => {
    const early = await transfer(anvilAddress(8), PRICE);
    const later = await pay(a, 8);
    await expectRefused(a, later.id, early, invalid(/mined before the payment's settlement/));
    // The payment's own settlement (payer -> payTo) is not a refund either.
    const settlement = (await db.payment.findUniqueOrThrow({ where: { id: later.id } })).transaction!;
    await expectRefused(a, later.id, settlement, invalid(/mined before the payment's settlement/));
  });

  it("a transfer already recorded as another payment's refund (named to its own seller only)", async () => {
    const first = await pay(a, 5);
    const second = await pay(a, 5);
    // Seller B has the same payTo wallet and a payment by the same payer.
    const ofB = await pay(b, 5);
    const hash = await transfer(first.payer, PRICE);
    await asSeller(a).payments.refund({ paymentId: first.id, transaction: hash });
    await expectRefused(a, second.id, hash, invalid(new RegExp(`already recorded as the refund of payment ${first.id}`)));
    // For B the transfer is still taken, and B is not told whose refund it is.
    await expectRefused(b, ofB.id, hash, invalid(/already recorded as the refund of another payment$/));
  });

  it("another seller's payment is not found", async () => {
    const hash = await transfer(p.payer, PRICE);
    await expectRefused(b, p.id, hash, { trpcCode: "NOT_FOUND", appCode: "not_found", detail: /no such payment/ });
    await expectRefused(a, "pay_does_not_exist", hash, { trpcCode: "NOT_FOUND", appCode: "not_found", detail: /no such payment/ });
    // ... and the transfer is still free for the payment it was meant for.
    expect((await asSeller(a).payments.refund({ paymentId: p.id, transaction: hash })).alreadyRecorded).toBe(false);
  });

  it("an unreachable chain RPC: a retryable 503-class error", async () => {
    const hash = await transfer(p.payer, PRICE);
    await withEnvForTests({ RPC_URL: "http://127.0.0.1:9" }, () =>
      expectRefused(a, p.id, hash, {
        trpcCode: "SERVICE_UNAVAILABLE",
        appCode: "payment_provider_unavailable",
        detail: /the chain could not be read right now; try again/,
      }),
    );
    expect((await asSeller(a).payments.refund({ paymentId: p.id, transaction: hash })).status).toBe("refunded");
  });

  it("a payment already refunded (by another transaction), released or challenged: a conflict naming the state", async () => {
    await asSeller(a).payments.refund({ paymentId: p.id, transaction: await transfer(p.payer, PRICE) });
    const conflict = (state: string) => ({ trpcCode: "CONFLICT", appCode: "payment_not_refundable", detail: new RegExp(`is ${state}: `) });
    await expectRefused(a, p.id, await transfer(p.payer, PRICE), conflict("refunded"));

    upstream.state.mode = { status: 500, body: { error: "boom" } };
    let released: Awaited<ReturnType<typeof pay>>;
    try {
      released = await pay(a, 4);
    } finally {
      upstream.state.mode = { status: 200 };
    }
    expect((await db.payment.findUniqueOrThrow({ where: { id: released.id } })).status).toBe("released");
    await expectRefused(a, released.id, await transfer(released.payer, PRICE), conflict("released"));

    const unpaid = (await (await call(a.host, AAPL)).json()).payment.id as string;
    await expectRefused(a, unpaid, await transfer(p.payer, PRICE), conflict("challenged"));
  });
});

describe("races", () => {
  it("ten parallel submissions of the same refund: one ledger row, one audit row, refunded, every caller told so", async () => {
    // Eight rounds: the interleavings differ from run to run (a loser may read the payment, the claimed logs or the
    // row lock before or after the winner commits), and each must end the same way.
    for (let round = 0; round < 8; round++) {
      const p = await pay(a, 6);
      const hash = await transfer(p.payer, PRICE);
      // Round 0 starts all ten at once; later rounds stagger the starts (by `round` ms each) so that some callers
      // read the payment before the winner commits and the claimed logs after it.
      const results = await Promise.allSettled(
        Array.from({ length: 10 }, (_, i) =>
          new Promise((r) => setTimeout(r, i * round)).then(() => asSeller(a).payments.refund({ paymentId: p.id, transaction: hash })),
        ),
      );
      expect(results.map((r) => (r.status === "fulfilled" ? "fulfilled" : String(r.reason)))).toEqual(Array(10).fill("fulfilled"));
      const values = results.map((r) => (r as PromiseFulfilledResult<{ alreadyRecorded: boolean; logIndex: number }>).value);
      expect(values.filter((v) => !v.alreadyRecorded)).toHaveLength(1);
      expect(new Set(values.map((v) => v.logIndex)).size).toBe(1);
      expect(await db.ledgerEntry.count({ where: { paymentId: p.id, kind: "refund" } })).toBe(1);
      expect(await db.auditLog.count({ where: { targetId: p.id, action: "payment.refund" } })).toBe(1);
      expect((await db.payment.findUniqueOrThrow({ where: { id: p.id } })).status).toBe("refunded");
    }
  });

  it("one transfer raced for five payments of the same payer and amount: exactly one is refunded", async () => {
    const payments = [];
    for (let i = 0; i < 5; i++) payments.push(await pay(a, 7));
    const hash = await transfer(payments[0]!.payer, PRICE);
    const results = await Promise.allSettled(payments.map((p) => asSeller(a).payments.refund({ paymentId: p.id, transaction: hash })));
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    for (const r of results.filter((r) => r.status === "rejected"))
      expect(String((r as PromiseRejectedResult).reason.message)).toMatch(/already recorded as the refund of payment pay_/);
    const rows = await db.ledgerEntry.findMany({ where: { transaction: hash } });
    expect(rows).toHaveLength(1);
    const statuses = await db.payment.findMany({ where: { id: { in: payments.map((p) => p.id) } }, select: { id: true, status: true } });
    expect(statuses.filter((s) => s.status === "refunded").map((s) => s.id)).toEqual([rows[0]!.paymentId]);
    expect(statuses.filter((s) => s.status === "consumed")).toHaveLength(4);
    expect(await db.auditLog.count({ where: { targetId: { in: payments.map((p) => p.id) } } })).toBe(1);
  });

  it("one batch transaction refunds several payments, one Transfer log each, also when recorded in parallel", async () => {
    const batch = await deployBatchRefund();
    const payments = [await pay(a, 3), await pay(a, 3), await pay(a, 3)];
    const w = wallet(10);
    // Two transfers to the payer in one transaction: enough for two of the three payments.
    const hash = await w.writeContract({
      address: batch.address,
      abi: batch.abi,
      functionName: "send",
      args: [USDC_ADDRESS, payments[0]!.payer, [PRICE, PRICE]],
    });
    const receipt = await w.waitForTransactionReceipt({ hash, pollingInterval: 10 });
    expect(receipt.status).toBe("success");
    const results = await Promise.allSettled(payments.slice(0, 2).map((p) => asSeller(a).payments.refund({ paymentId: p.id, transaction: hash })));
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "fulfilled"]);
    const logIndexes = results.map((r) => (r as PromiseFulfilledResult<{ logIndex: number }>).value.logIndex).sort();
    const rows = await db.ledgerEntry.findMany({ where: { transaction: hash }, orderBy: { logIndex: "asc" } });
    expect(rows.map((r) => r.logIndex)).toEqual(logIndexes);
    expect(new Set(logIndexes).size).toBe(2);
    // The third payment finds both logs taken.
    await expectRefused(a, payments[2]!.id, hash, {
      trpcCode: "BAD_REQUEST",
      appCode: "invalid_request",
      detail: /already recorded as the refund of payment pay_/,
    });
  });

  it("the database refuses a second refund row for the same transfer, whatever the code does", async () => {
    const [row] = await db.ledgerEntry.findMany({ where: { kind: "refund", sellerId: a.sellerId }, take: 1 });
    const other = await pay(a, 9);
    await expect(
      db.ledgerEntry.create({
        data: {
          id: `led_${randomBytes(6).toString("hex")}`,
          sellerId: a.sellerId,
          paymentId: other.id,
          kind: "refund",
          amountMicros: PRICE,
          transaction: row!.transaction,
          logIndex: row!.logIndex,
        },
      }),
    ).rejects.toMatchObject({ code: "P2002" });
    await expect(
      db.ledgerEntry.create({
        data: {
          id: `led_${randomBytes(6).toString("hex")}`,
          sellerId: a.sellerId,
          paymentId: other.id,
          kind: "refund",
          amountMicros: PRICE,
          transaction: randomHash(),
        },
      }),
    ).rejects.toThrow();
  });
});

describe("the console procedure", () => {
  it("refuses callers without a seller session", async () => {
    const p = await pay(a, 9);
    const hash = await transfer(p.payer, PRICE);
    for (const ctx of [
      { session: null },
      {
        session: {
          user: { id: a.userId, email: "x@test", kind: "human" as const, sellerId: a.sellerId },
          expires: new Date(Date.now() + 60_000).toISOString(),
        },
      },
    ]) {
      const before = await snapshot(p.id);
      await expect(createCaller(ctx).payments.refund({ paymentId: p.id, transaction: hash })).rejects.toMatchObject({ code: "UNAUTHORIZED" });
      expect(await snapshot(p.id)).toEqual(before);
    }
  });
});
