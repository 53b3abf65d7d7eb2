// Paying with x402's batch-settlement scheme through the gateway, with the official client (@x402/evm's
// BatchSettlementEvmScheme, unmodified): the 402 offers it beside `exact`; the first call deposits and pays; every next
// call is a voucher, verified in memory and spent by one statement; a client whose base is off is resynced by the
// corrective 402; replays, forged and foreign vouchers are refused or served again, never charged twice.
import { decodePaymentResponseHeader } from "@x402/core/http";
import { BATCH_SETTLEMENT_ADDRESS } from "@x402/evm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "../../../db/client";
import { callGateway, startGatewayStack, stopGatewayStack, usdcBalance, type FakeUpstream, type GatewaySeller, type TestChain } from "../../../testing/gateway";
import { walletClient } from "../../../chain/clients";
import { USDC_ADDRESS } from "../../../chain/config";
import { TOKEN_ABI } from "../../../chain/token";
import { refundPayment } from "../../refund-payment";
import { anvilAddress, anvilPrivateKey } from "../../../../scripts/lib/local-chain";
import { flushVoucherCaptures } from "./capture-queue";
import { forgetChannel } from "./channels";
import { officialBatchClient, payBatch, settleBatch, type OfficialBatchClient } from "./official-client.test-kit";

const SECRET = "batch-upstream-secret-0123456789";
const PATH = "/api/v1/aggregates/AAPL?from=2024-06-01&to=2024-06-28";
const PRICE = 20_000n;
let chain: TestChain;
let upstream: FakeUpstream;
let seller: GatewaySeller;

beforeAll(async () => {
  ({ chain, upstream, seller } = await startGatewayStack(SECRET));
}, 60_000);
afterAll(() => stopGatewayStack({ chain, upstream }));

/** One call the way @x402/fetch makes it: the 402, the client's payload, the paid retry, the answer processed. */
async function paidCall(c: OfficialBatchClient, path = PATH) {
  const challenge = await callGateway(seller.host, path);
  expect(challenge.status).toBe(402);
  const { payload, headers } = await payBatch(c, challenge);
  const res = await callGateway(seller.host, path, { headers });
  const recovered = await settleBatch(c, payload, res.clone());
  return { res, payload, headers, recovered };
}

const channelRow = (id: string) => db.batchChannel.findUniqueOrThrow({ where: { id } });

describe("the 402", () => {
  it("offers batch-settlement beside exact in one PAYMENT-REQUIRED, with our channel terms and the 402's payment id", async () => {
    const res = await callGateway(seller.host, PATH);
    const body = await res.json();
    expect(body.payment.rails).toContain("x402-batch");
    const required = JSON.parse(Buffer.from(res.headers.get("payment-required")!, "base64").toString("utf8"));
    expect(required.accepts.map((a: { scheme: string }) => a.scheme)).toEqual(["exact", "batch-settlement"]);
    const batch = required.accepts[1];
    expect(batch).toMatchObject({ network: "eip155:8453", amount: PRICE.toString(), payTo: anvilAddress(10) });
    expect(batch.extra).toMatchObject({
      withdrawDelay: 86_400,
      minDeposit: (PRICE * 1000n).toString(),
      paymentId: body.payment.id,
      name: "USD Coin",
      version: "2",
    });
    expect(batch.extra.receiverAuthorizer).toMatch(/^0x[0-9a-fA-F]{40}$/);
  });
});

describe("paying with the official client", () => {
  it("deposits once, then pays each call with a voucher; PAYMENT-RESPONSE carries the charge and the channel's state", async () => {
    const c = officialBatchClient(5, { rpcUrl: chain.rpcUrl });
    const payerBefore = await usdcBalance(chain.rpcUrl, anvilAddress(5));
    const first = await paidCall(c);
    expect(first.res.status, await first.res.clone().text()).toBe(200);
    expect((first.payload.payload as { type: string }).type).toBe("deposit");
    const receipt1 = decodePaymentResponseHeader(first.res.headers.get("payment-response")!);
    expect(receipt1).toMatchObject({ success: true, payer: anvilAddress(5).toLowerCase() });
    expect(receipt1.transaction).toMatch(/^0x[0-9a-f]{64}$/);
    // The client's default spend controls cap a payment at $1, and a deposit at five of them: $5 of the $20 asked for.
    const deposit = 5_000_000n;
    expect(receipt1.amount).toBe(deposit.toString());
    expect(receipt1.extra).toMatchObject({
      chargedAmount: PRICE.toString(),
      channelState: { balance: deposit.toString(), chargedCumulativeAmount: PRICE.toString() },
    });
    expect(payerBefore - (await usdcBalance(chain.rpcUrl, anvilAddress(5)))).toBe(deposit);
    expect(await usdcBalance(chain.rpcUrl, BATCH_SETTLEMENT_ADDRESS)).toBeGreaterThanOrEqual(deposit);

    for (let i = 2; i <= 4; i++) {
      const next = await paidCall(c);
      expect(next.res.status).toBe(200);
      expect((next.payload.payload as { type: string }).type).toBe("voucher");
      const r = decodePaymentResponseHeader(next.res.headers.get("payment-response")!);
      expect(r).toMatchObject({ success: true, transaction: "", amount: "" });
      expect(r.extra).toMatchObject({ chargedAmount: PRICE.toString(), channelState: { chargedCumulativeAmount: (PRICE * BigInt(i)).toString() } });
    }
    const channelId = (first.payload.payload as { voucher: { channelId: string } }).voucher.channelId.toLowerCase();
    await flushVoucherCaptures();
    const row = await channelRow(channelId);
    expect(row).toMatchObject({ chargedMicros: PRICE * 4n, signedMaxMicros: PRICE * 4n, balanceMicros: deposit, claimedMicros: 0n, vouchers: 4 });
    const payments = await db.payment.findMany({ where: { sellerId: seller.sellerId, rail: "x402-batch", payer: anvilAddress(5).toLowerCase() } });
    expect(payments.map((p) => p.status)).toEqual(["consumed", "consumed", "consumed", "consumed"]);
    expect(await db.ledgerEntry.count({ where: { paymentId: { in: payments.map((p) => p.id) }, kind: "charge" } })).toBe(4);
  });

  it("resyncs a client that lost its state (a new process) through the corrective 402, and charges nothing for the refusal", async () => {
    const salt = `0x${"5a".repeat(32)}` as const;
    const before = officialBatchClient(6, { salt, rpcUrl: chain.rpcUrl });
    for (let i = 0; i < 3; i++) expect((await paidCall(before)).res.status).toBe(200);
    // A new client on the same channel: it reads the chain (nothing claimed yet) and signs from 0, one base behind.
    const after = officialBatchClient(6, { salt, rpcUrl: chain.rpcUrl });
    const stale = await paidCall(after);
    expect(stale.res.status).toBe(402);
    expect(stale.res.headers.get("svc-receipt")).toBeNull();
    expect((await stale.res.json()).reason).toBe("cumulative_amount_mismatch");
    expect(stale.recovered).toBe(true);
    // Resynced from the channel's latest voucher (its own signature, checked by the client): the next call pays.
    const next = await paidCall(after);
    expect(next.res.status, await next.res.clone().text()).toBe(200);
    const r = decodePaymentResponseHeader(next.res.headers.get("payment-response")!);
    expect(r.extra).toMatchObject({ channelState: { chargedCumulativeAmount: (PRICE * 4n).toString() } });
  });

  it("gives the price back when the upstream fails, so the same voucher pays the retry", async () => {
    const c = officialBatchClient(7, { rpcUrl: chain.rpcUrl });
    expect((await paidCall(c)).res.status).toBe(200);
    upstream.state.mode = { status: 503 };
    let failed;
    try {
      failed = await paidCall(c);
    } finally {
      upstream.state.mode = { status: 200 };
    }
    expect(failed.res.status).toBe(503);
    expect(failed.res.headers.get("payment-response")).toBeNull();
    const channelId = (failed.payload.payload as { voucher: { channelId: string } }).voucher.channelId.toLowerCase();
    expect((await channelRow(channelId)).chargedMicros).toBe(PRICE);
    // The client signs the same step again (its base did not move): served and charged once.
    const retry = await paidCall(c);
    expect(retry.res.status).toBe(200);
    expect((retry.payload.payload as { voucher: { maxClaimableAmount: string } }).voucher.maxClaimableAmount).toBe((PRICE * 2n).toString());
    await flushVoucherCaptures();
    expect((await channelRow(channelId)).chargedMicros).toBe(PRICE * 2n);
    forgetChannel(channelId);
  });
});

describe("refunds", () => {
  it("refunds a charged voucher call from the console as an exact one: the seller's transfer back, checked on chain", async () => {
    const payment = await db.payment.findFirstOrThrow({ where: { sellerId: seller.sellerId, rail: "x402-batch", status: "consumed" } });
    const wallet = walletClient(chain.rpcUrl, anvilPrivateKey(10));
    // The seller's USDC (its claims would bring it; this file claims nothing, so the test token mints it).
    await wallet.waitForTransactionReceipt({
      hash: await wallet.writeContract({ address: USDC_ADDRESS, abi: TOKEN_ABI, functionName: "mint", args: [anvilAddress(10), payment.amountMicros] }),
    });
    const hash = await wallet.writeContract({ address: USDC_ADDRESS, abi: TOKEN_ABI, functionName: "transfer", args: [payment.payer, payment.amountMicros] });
    await wallet.waitForTransactionReceipt({ hash });
    const refunded = await refundPayment({ sellerId: seller.sellerId, actorId: null, paymentId: payment.id, transaction: hash });
    expect(refunded).toMatchObject({ paymentId: payment.id, status: "refunded", transaction: hash.toLowerCase() });
    expect(await db.ledgerEntry.count({ where: { paymentId: payment.id, kind: "refund" } })).toBe(1);
  });
});
