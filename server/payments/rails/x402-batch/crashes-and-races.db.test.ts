// The x402-batch rail's worst cases, with real processes: an instance that dies mid-call or mid-claim (a child process
// killed at a fault point), two instances racing one voucher (two children whose requests leave at the same moment),
// and a client that stacks vouchers on one channel. What must hold: a voucher spends once, a crash loses no voucher
// that paid for an answer, a claim never takes more than the vouchers signed, and never twice.
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { signVoucher } from "@x402/evm/batch-settlement/client";
import { BATCH_SETTLEMENT_ADDRESS } from "@x402/evm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { anvilAddress, anvilPrivateKey } from "../../../../scripts/lib/local-chain";
import { rpcRequest } from "../../../chain/json-rpc";
import { NETWORK } from "../../../chain/config";
import { db } from "../../../db/client";
import { reconcileOnce } from "../../reconciler";
import {
  callGateway,
  createGatewaySeller,
  startChainForTests,
  startFakeUpstream,
  stopGatewayStack,
  usdcBalance,
  type FakeUpstream,
  type GatewaySeller,
  type TestChain,
} from "../../../testing/gateway";
import { flushVoucherCaptures } from "./capture-queue";
import { forgetChannel } from "./channels";
import { claimVouchers, signClaim as signClaimFor } from "./claim-vouchers";
import { officialBatchClient, payBatch, settleBatch, type OfficialBatchClient } from "./official-client.test-kit";
import type { StoredClaimRow } from "./chain.queries";
import type { ChannelConfig } from "./channel-terms";
import { claimCall, gasWallet, readChannel } from "./settlement-contract";
import { answerOf, race, spawnInstance } from "./spawn-instance.test-kit";

const SECRET = "batch-crash-upstream-secret-012345";
const PATH = "/api/v1/aggregates/AAPL?from=2024-07-01&to=2024-07-31";
const PRICE = 20_000n;
const LEASE_SECONDS = 5;
let chain: TestChain;
let upstream: FakeUpstream;
let seller: GatewaySeller;
/** This file's sellers are paid at an address of their own, so its claims touch only its own channels. */
const payTo = privateKeyToAccount(generatePrivateKey()).address;
const receivers = [payTo.toLowerCase()];

beforeAll(async () => {
  chain = await startChainForTests();
  upstream = await startFakeUpstream(SECRET);
  seller = await createGatewaySeller(upstream.url, { signingSecret: SECRET, payTo });
}, 180_000);
afterAll(() => stopGatewayStack({ chain, upstream }));

const challenge = async () => {
  const res = await callGateway(seller.host, PATH);
  expect(res.status).toBe(402);
  return res;
};

/** A channel opened by the official client's first call (a deposit), its state in sync with ours. */
async function openChannel(payerIndex: number): Promise<{ c: OfficialBatchClient; channelId: string }> {
  const c = officialBatchClient(payerIndex, { rpcUrl: chain.rpcUrl });
  const { payload, headers } = await payBatch(c, await challenge());
  const res = await callGateway(seller.host, PATH, { headers });
  expect(res.status, await res.clone().text()).toBe(200);
  await settleBatch(c, payload, res);
  return { c, channelId: (payload.payload as { voucher: { channelId: string } }).voucher.channelId.toLowerCase() };
}

const childEnv = (headers: Record<string, string>, extra: Record<string, string> = {}) => ({
  BATCH_CHILD: "call",
  BATCH_HOST: seller.host,
  BATCH_PATH: PATH,
  BATCH_HEADERS: JSON.stringify(headers),
  ...extra,
});

const channelRow = (id: string) => db.batchChannel.findUniqueOrThrow({ where: { id } });
const paymentOf = (headers: Record<string, string>) => {
  const payload = JSON.parse(Buffer.from(headers["PAYMENT-SIGNATURE"]!, "base64").toString("utf8"));
  return payload.accepted.extra.paymentId as string;
};
const gasWalletNonce = async () => Number(await rpcRequest<string>(chain.rpcUrl, "eth_getTransactionCount", [anvilAddress(0), "latest"]));
const expireClaimLease = () => db.batchTransaction.updateMany({ where: { kind: "claim", status: "pending" }, data: { leaseUntil: new Date(0) } });

describe("crashes", () => {
  it("after a voucher is accepted and before it is captured: released after its lease, the price given back, never claimed; the same voucher pays the retry", async () => {
    const { c, channelId } = await openChannel(6);
    const { headers } = await payBatch(c, await challenge());
    const paymentId = paymentOf(headers);
    const died = await spawnInstance(childEnv(headers, { GATEWAY_FAULT: "exit_after_lock", PAYMENT_LEASE_SECONDS: String(LEASE_SECONDS) }));
    expect(died.code, died.out).toBe(86);
    expect((await db.payment.findUniqueOrThrow({ where: { id: paymentId } })).status).toBe("verified");
    expect((await channelRow(channelId)).chargedMicros).toBe(PRICE * 2n);
    // A claim meanwhile takes only what was captured: the first call, not the held one.
    await claimVouchers({ force: true, receivers });
    expect((await readChannel(channelId as `0x${string}`)).totalClaimed).toBe(PRICE);

    await new Promise((r) => setTimeout(r, LEASE_SECONDS * 1000 + 300));
    const report = await reconcileOnce();
    expect(report.releasedIds).toContain(paymentId);
    expect((await db.payment.findUniqueOrThrow({ where: { id: paymentId } })).status).toBe("released");
    expect(await channelRow(channelId)).toMatchObject({ chargedMicros: PRICE, vouchers: 1 });
    forgetChannel(channelId);
    // The client never got an answer: it signs the same step again, on a fresh 402, and it is served and charged once.
    const retry = await payBatch(c, await challenge());
    expect((retry.payload.payload as { voucher: { maxClaimableAmount: string } }).voucher.maxClaimableAmount).toBe((PRICE * 2n).toString());
    const res = await callGateway(seller.host, PATH, { headers: retry.headers });
    expect(res.status, await res.clone().text()).toBe(200);
    await flushVoucherCaptures();
    expect((await channelRow(channelId)).chargedMicros).toBe(PRICE * 2n);
  }, 180_000);

  it("after a voucher paid for an answer and before it is claimed: no voucher is lost, any instance claims it", async () => {
    const { c, channelId } = await openChannel(7);
    const { headers } = await payBatch(c, await challenge());
    // Another instance serves the call, writes its capture and stops (no claim pass ever ran there).
    const served = await spawnInstance(childEnv(headers));
    expect(answerOf(served).status).toBe(200);
    expect((await db.payment.findUniqueOrThrow({ where: { id: paymentOf(headers) } })).status).toBe("consumed");
    const before = await usdcBalance(chain.rpcUrl, payTo);
    const report = await claimVouchers({ force: true, receivers });
    expect(report).toMatchObject({ transaction: expect.stringMatching(/^0x/) });
    expect((await readChannel(channelId as `0x${string}`)).totalClaimed).toBe(PRICE * 2n);
    expect((await channelRow(channelId)).claimedMicros).toBe(PRICE * 2n);
    // Settled in the same transaction: the seller holds it.
    expect((await usdcBalance(chain.rpcUrl, payTo)) - before).toBeGreaterThanOrEqual(PRICE * 2n);
  }, 180_000);

  for (const fault of ["before_confirm", "after_hash_kept"] as const)
    it(`a claim retried after a crash (${fault === "before_confirm" ? "it landed, not recorded" : "signed and kept, never sent"}) claims once`, async () => {
      const { channelId } = await openChannel(fault === "before_confirm" ? 8 : 9);
      const id = channelId as `0x${string}`;
      await flushVoucherCaptures();
      const receiverBefore = await usdcBalance(chain.rpcUrl, payTo);
      const onChainBefore = (await readChannel(id)).totalClaimed;
      const died = await spawnInstance({ BATCH_CHILD: "claim", BATCH_FAULT: fault, BATCH_RECEIVERS: receivers.join(",") });
      expect(died.code, died.out).toBe(86);
      const pending = await db.batchTransaction.findFirstOrThrow({ where: { kind: "claim", status: "pending" } });
      expect(pending.transaction).toMatch(/^0x/);
      expect((await readChannel(id)).totalClaimed).toBe(fault === "before_confirm" ? PRICE : onChainBefore);

      // Its lease run out (as after the crash), the next pass on this instance finishes it.
      await expireClaimLease();
      const nonce = await gasWalletNonce();
      const resumed = await claimVouchers({ receivers });
      expect(resumed).toMatchObject({ transaction: expect.stringMatching(/^0x/) });
      // Landed before the crash: recorded from its receipt, nothing sent again. Never sent: sent once now.
      expect(await gasWalletNonce()).toBe(nonce + (fault === "before_confirm" ? 0 : 1));
      expect((await db.batchTransaction.findUniqueOrThrow({ where: { id: pending.id } })).status).toBe("confirmed");
      expect((await readChannel(id)).totalClaimed).toBe(PRICE);
      expect((await channelRow(channelId)).claimedMicros).toBe(PRICE);
      // The seller was paid the claim's amount once (what other channels' claims added is theirs).
      const receiverAfter = await usdcBalance(chain.rpcUrl, payTo);
      expect(receiverAfter - receiverBefore).toBe(BigInt(pending.amountMicros));
      // Nothing left for a next pass; and the same claim sent again on purpose (a relayer retrying blindly) takes nothing twice.
      expect(await claimVouchers({ force: true, receivers })).toMatchObject({ skipped: "nothing unclaimed" });
      const rows = (pending.payload as { rows: StoredClaimRow[] }).rows.map((r) => ({
        config: r.config as unknown as ChannelConfig,
        ceiling: BigInt(r.ceiling),
        signature: r.signature as `0x${string}`,
        total: BigInt(r.total),
      }));
      const resent = await gasWallet()!.sendCall({ ...claimCall(rows, await signClaimFor(rows)), gas: 2_000_000n });
      expect(resent.success).toBe(true);
      expect((await readChannel(id)).totalClaimed).toBe(PRICE);
      expect(await usdcBalance(chain.rpcUrl, payTo)).toBe(receiverAfter);
    }, 180_000);
});

describe("races", () => {
  it("two instances racing one voucher: one serves and charges it, the other serves it again free or is told to wait", async () => {
    const { c, channelId } = await openChannel(1);
    const { headers } = await payBatch(c, await challenge());
    const [a, b] = (await race(childEnv(headers), childEnv(headers))).map(answerOf);
    const charged = [a!, b!].filter((x) => x.status === 200 && !/replay=true/.test(x.billing));
    expect(charged, JSON.stringify([a, b])).toHaveLength(1);
    const other = [a!, b!].find((x) => x !== charged[0])!;
    expect(other.status === 409 || (other.status === 200 && /replay=true/.test(other.billing)), JSON.stringify(other)).toBe(true);
    expect(await db.ledgerEntry.count({ where: { paymentId: paymentOf(headers) } })).toBe(1);
    expect((await channelRow(channelId)).chargedMicros).toBe(PRICE * 2n);
  }, 180_000);

  it("two instances racing two vouchers for one step (two 402s paid on the same base): the channel moves once", async () => {
    const { c, channelId } = await openChannel(2);
    // Both signed before either answer: the client's base is the same for both.
    const first = await payBatch(c, await challenge());
    const second = await payBatch(c, await challenge());
    expect(paymentOf(first.headers)).not.toBe(paymentOf(second.headers));
    const answers = (await race(childEnv(first.headers), childEnv(second.headers))).map(answerOf);
    expect(
      answers.filter((x) => x.status === 200),
      JSON.stringify(answers),
    ).toHaveLength(1);
    expect(answers.filter((x) => x.status !== 200).every((x) => x.status === 402 || x.status === 409)).toBe(true);
    expect((await channelRow(channelId)).chargedMicros).toBe(PRICE * 2n);
    const paid = await db.payment.count({
      where: { id: { in: [paymentOf(first.headers), paymentOf(second.headers)] }, status: { in: ["consumed", "verified"] } },
    });
    expect(paid).toBe(1);
  }, 180_000);

  it("stacked vouchers (a client that does not wait): a released call under a later one is never claimed, the later one is", async () => {
    const { c, channelId } = await openChannel(3);
    const signer = privateKeyToAccount(anvilPrivateKey(3));
    // Two calls on the channel at once, signed by hand one step apart on the 402s' own requirements.
    const signFor = async (res: Response, ceiling: bigint) => {
      const { payload } = await payBatch(c, res);
      const voucher = await signVoucher(signer, channelId as `0x${string}`, ceiling.toString(), NETWORK);
      const stacked = { ...payload, payload: { ...(payload.payload as object), voucher } };
      return { "PAYMENT-SIGNATURE": Buffer.from(JSON.stringify(stacked)).toString("base64") };
    };
    const a = await signFor(await challenge(), PRICE * 2n);
    const b = await signFor(await challenge(), PRICE * 3n);
    // The first call's upstream fails after a while; the second, sent while the first is held, answers.
    const base = upstream.state.calls;
    upstream.state.mode = { status: 502, delayMs: 800 };
    try {
      const ra = callGateway(seller.host, PATH, { headers: a });
      while (upstream.state.calls === base) await new Promise((r) => setTimeout(r, 10));
      upstream.state.mode = { status: 200, delayMs: 100 };
      const rb = callGateway(seller.host, PATH, { headers: b });
      const [resA, resB] = await Promise.all([ra, rb]);
      expect(resA.status).toBe(502);
      expect(resB.status, await resB.clone().text()).toBe(200);
    } finally {
      upstream.state.mode = { status: 200 };
    }
    await flushVoucherCaptures();
    // The step stays spent (the later voucher sits on it); its price is released, and a claim leaves it out.
    expect(await channelRow(channelId)).toMatchObject({ chargedMicros: PRICE * 3n, releasedMicros: PRICE });
    await claimVouchers({ force: true, receivers });
    expect((await readChannel(channelId as `0x${string}`)).totalClaimed).toBe(PRICE * 2n);
    expect(await usdcBalance(chain.rpcUrl, BATCH_SETTLEMENT_ADDRESS)).toBeGreaterThan(0n);
  }, 180_000);
});
