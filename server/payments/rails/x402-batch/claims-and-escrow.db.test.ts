// Claims in batches and the payer's escrow, through the gateway on a chain of this file's own (its last test moves the
// chain's clock a day forward): many channels' vouchers claimed in one transaction, only when worth its gas; every
// forged or foreign voucher refused with nothing charged; a payer that starts withdrawing gets its channel claimed at
// once and refused from then on, and after the delay takes back every unit it did not spend.
import { signVoucher } from "@x402/evm/batch-settlement/client";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { anvilAddress, anvilPrivateKey } from "../../../../scripts/lib/local-chain";
import { NETWORK } from "../../../chain/config";
import { db } from "../../../db/client";
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
import { channelIdOf, type ChannelConfig } from "./channel-terms";
import { CLAIM_MAX_AGE_SECONDS, CLAIM_MIN_CALLS, claimDue, claimVouchers } from "./claim-vouchers";
import { officialBatchClient, payBatch, payerCalls, settleBatch, type OfficialBatchClient } from "./official-client.test-kit";
import { latestBlock, readChannel } from "./settlement-contract";
import { syncChannels } from "./sync-channels";

const SECRET = "batch-claims-upstream-secret-0123";
const PATH = "/api/v1/aggregates/AAPL?from=2024-08-01&to=2024-08-30";
const PRICE = 20_000n;
let chain: TestChain;
let upstream: FakeUpstream;
let seller: GatewaySeller;
const payTo = privateKeyToAccount(generatePrivateKey()).address;
const receivers = [payTo.toLowerCase()];

beforeAll(async () => {
  // A chain of its own: the timed withdrawal moves the chain's clock past the withdraw delay (evm_increaseTime), which
  // on the shared chain would expire every other file's signed authorizations.
  chain = await startChainForTests({ ownChain: "the timed withdrawal moves the chain's clock (evm_increaseTime)" });
  upstream = await startFakeUpstream(SECRET);
  seller = await createGatewaySeller(upstream.url, { signingSecret: SECRET, payTo });
}, 60_000);
afterAll(() => stopGatewayStack({ chain, upstream }));

/**
 * A claim pass as the reconciler makes it, once no claim is in flight. One claim is in flight at a time per database,
 * and other files share this one: while another file's claim holds its lease the answer is `pending`, and the next
 * pass (as the reconciler's would) is this one's.
 */
async function claimWhenFree(opts: Parameters<typeof claimVouchers>[0]) {
  let report = await claimVouchers(opts);
  for (let i = 0; i < 60 && "pending" in report; i++) {
    await new Promise((r) => setTimeout(r, 500));
    report = await claimVouchers(opts);
  }
  return report;
}

const challenge = async () => {
  const res = await callGateway(seller.host, PATH);
  expect(res.status).toBe(402);
  return res;
};

async function pay(c: OfficialBatchClient) {
  const { payload, headers } = await payBatch(c, await challenge());
  const res = await callGateway(seller.host, PATH, { headers });
  await settleBatch(c, payload, res.clone());
  return { res, payload, headers };
}

/** A channel and `calls` paid calls on it, with the official client; its id and config. */
async function channelWithCalls(payerIndex: number, calls: number) {
  const c = officialBatchClient(payerIndex, { rpcUrl: chain.rpcUrl });
  let config: ChannelConfig | null = null;
  for (let i = 0; i < calls; i++) {
    const { res, payload } = await pay(c);
    expect(res.status, await res.clone().text()).toBe(200);
    config = (payload.payload as { channelConfig: ChannelConfig }).channelConfig;
  }
  return { c, config: config!, id: channelIdOf(config!) };
}

describe("the claim policy", () => {
  const candidate = (calls: number, opts: { ageSeconds?: number; withdrawing?: boolean } = {}) => ({
    vouchers: calls,
    claimedVouchers: 0,
    heldCalls: 0,
    unclaimedSince: new Date(Date.now() - (opts.ageSeconds ?? 0) * 1000),
    channel: { withdrawRequestedAt: opts.withdrawing ? new Date() : null } as never,
  });
  it(`waits for ${CLAIM_MIN_CALLS} unclaimed calls, or an hour, or a payer leaving`, () => {
    expect(claimDue([candidate(CLAIM_MIN_CALLS - 1)])).toBe(false);
    expect(claimDue([candidate(CLAIM_MIN_CALLS / 2), candidate(CLAIM_MIN_CALLS / 2)])).toBe(true);
    expect(claimDue([candidate(3, { ageSeconds: CLAIM_MAX_AGE_SECONDS - 60 })])).toBe(false);
    expect(claimDue([candidate(3, { ageSeconds: CLAIM_MAX_AGE_SECONDS })])).toBe(true);
    expect(claimDue([candidate(1, { withdrawing: true })])).toBe(true);
    // Held calls are not earned yet: they do not count.
    expect(claimDue([{ ...candidate(CLAIM_MIN_CALLS), heldCalls: 1 }])).toBe(false);
  });
});

describe("claims", () => {
  it("collects many channels' vouchers in one transaction, only what was captured, and pays the seller in it", async () => {
    const channels = [await channelWithCalls(1, 3), await channelWithCalls(2, 2), await channelWithCalls(3, 4)];
    await flushVoucherCaptures();
    // Nine calls: not worth a transaction yet.
    expect(await claimWhenFree({ receivers })).toMatchObject({ skipped: expect.stringContaining("claims wait") });
    const before = await usdcBalance(chain.rpcUrl, payTo);
    const report = await claimWhenFree({ force: true, receivers });
    expect(report).toMatchObject({ channels: 3, calls: 9 });
    const claims = await db.batchTransaction.findMany({
      where: { kind: "claim", status: "confirmed", transaction: (report as { transaction: string }).transaction },
    });
    expect(claims).toHaveLength(1);
    expect(claims[0]!.gasUsed).toBeGreaterThan(0n);
    for (const [i, n] of [3n, 2n, 4n].entries()) {
      expect((await readChannel(channels[i]!.id)).totalClaimed).toBe(PRICE * n);
      expect(await db.batchChannel.findUniqueOrThrow({ where: { id: channels[i]!.id } })).toMatchObject({
        claimedMicros: PRICE * n,
        claimedVouchers: Number(n),
      });
    }
    expect((await usdcBalance(chain.rpcUrl, payTo)) - before).toBe(PRICE * 9n);
  }, 120_000);

  it("never lets a channel be charged beyond its latest voucher (the table refuses it)", async () => {
    const { id } = await channelWithCalls(5, 1);
    await expect(db.$executeRawUnsafe(`update batch_channels set charged_micros = signed_max_micros + 1 where id = $1`, id)).rejects.toThrow(
      /charged_within_voucher/,
    );
  });
});

describe("forged and foreign vouchers", () => {
  it("are refused before anything is charged: another signer, another channel's config, another chain, beyond the escrow, malleated, another request", async () => {
    const { c, config, id } = await channelWithCalls(6, 1);
    const before = { upstream: upstream.state.calls, row: await db.batchChannel.findUniqueOrThrow({ where: { id } }) };
    const next = PRICE * 2n;
    const tampered = async (edit: (p: Record<string, unknown>) => Promise<Record<string, unknown>> | Record<string, unknown>, res?: Response) => {
      const { payload } = await payBatch(c, res ?? (await challenge()));
      const changed = await edit(structuredClone(payload) as unknown as Record<string, unknown>);
      const r = await callGateway(seller.host, PATH, { headers: { "PAYMENT-SIGNATURE": Buffer.from(JSON.stringify(changed)).toString("base64") } });
      return { status: r.status, body: await r.json() };
    };
    const withVoucher = (sign: () => Promise<{ signature: string }>) => async (p: Record<string, unknown>) => {
      const inner = p.payload as { voucher: { signature: string } };
      inner.voucher.signature = (await sign()).signature;
      return p;
    };
    const stranger = await tampered(withVoucher(() => signVoucher(privateKeyToAccount(anvilPrivateKey(7)), id, next.toString(), NETWORK)));
    expect(stranger).toMatchObject({ status: 402, body: { error: "payment_required", reason: "invalid_voucher_signature" } });
    const otherChain = await tampered(withVoucher(() => signVoucher(privateKeyToAccount(anvilPrivateKey(6)), id, next.toString(), "eip155:84532")));
    expect(otherChain).toMatchObject({ status: 402, body: { reason: "invalid_voucher_signature" } });
    const otherConfig = await tampered((p) => {
      (p.payload as { channelConfig: ChannelConfig }).channelConfig.salt = `0x${"77".repeat(32)}`;
      return p;
    });
    expect(otherConfig).toMatchObject({ status: 402, body: { reason: "channel_config_mismatch" } });
    const beyond = await tampered(withVoucher(() => signVoucher(privateKeyToAccount(anvilPrivateKey(6)), id, "999000000", NETWORK)));
    expect(beyond.status).toBe(402);
    const malleated = await tampered((p) => {
      const v = (p.payload as { voucher: { signature: string } }).voucher;
      const n = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
      const s = BigInt(`0x${v.signature.slice(66, 130)}`);
      const recovery = parseInt(v.signature.slice(130, 132), 16);
      v.signature = `${v.signature.slice(0, 66)}${(n - s).toString(16).padStart(64, "0")}${(recovery === 27 ? 28 : 27).toString(16)}`;
      return p;
    });
    expect(malleated).toMatchObject({ status: 402, body: { reason: "invalid_voucher_signature" } });
    // Another request's 402 (another path): its signed payment id does not bind this call.
    const elsewhere = await callGateway(seller.host, "/api/v1/aggregates/MSFT?from=2024-08-01&to=2024-08-30");
    const foreign = await tampered((p) => p, elsewhere);
    expect(foreign).toMatchObject({ status: 409, body: { error: "payment_request_mismatch" } });
    const unbound = await tampered((p) => {
      delete (p.accepted as { extra: Record<string, unknown> }).extra.paymentId;
      return p;
    });
    expect(unbound).toMatchObject({ status: 402, body: { reason: "challenge_missing" } });

    expect(upstream.state.calls).toBe(before.upstream);
    expect(await db.batchChannel.findUniqueOrThrow({ where: { id } })).toMatchObject({
      chargedMicros: before.row.chargedMicros,
      vouchers: before.row.vouchers,
    });
    // The genuine next voucher still pays.
    expect((await pay(c)).res.status).toBe(200);
    void config;
  }, 120_000);
});

describe("the payer's escrow", () => {
  // Last in this file: it moves the chain's clock a day forward.
  it("a payer that starts withdrawing is claimed at once and refused from then on; after the delay it takes back all it did not spend", async () => {
    const payer = anvilAddress(8);
    const start = await usdcBalance(chain.rpcUrl, payer);
    const { c, config, id } = await channelWithCalls(8, 3);
    await flushVoucherCaptures();
    const escrow = (await readChannel(id)).balance;
    // (The logs are read from here: the test database's cursor is shared with other files' chains.)
    const from = await latestBlock();
    await payerCalls(chain.rpcUrl, 8, "initiateWithdraw", [config, escrow]);
    // The next pass sees it in the contract's logs: the channel is claimed now, although 3 calls are below the policy.
    expect(await syncChannels({ fromBlock: from })).toBe(1);
    expect((await db.batchChannel.findUniqueOrThrow({ where: { id } })).withdrawRequestedAt).not.toBeNull();
    // (With it, whatever else is unclaimed at this seller goes in the same transaction.)
    const urgent = await claimWhenFree({ receivers });
    expect(urgent).toMatchObject({ transaction: expect.stringMatching(/^0x/) });
    expect((urgent as { calls: number }).calls).toBeGreaterThanOrEqual(3);
    expect((await readChannel(id)).totalClaimed).toBe(PRICE * 3n);
    // No more vouchers on a channel whose payer is leaving.
    const refused = await pay(c);
    expect(refused.res.status).toBe(402);
    expect((await refused.res.json()).reason).toBe("channel_withdrawing");

    const rpc = (method: string, params: unknown[]) =>
      fetch(chain.rpcUrl, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }) });
    await rpc("evm_increaseTime", [config.withdrawDelay + 1]);
    await rpc("evm_mine", []);
    const beforeFinalize = await latestBlock();
    await payerCalls(chain.rpcUrl, 8, "finalizeWithdraw", [config]);
    // Everything it deposited, less the three calls it paid for.
    expect(await usdcBalance(chain.rpcUrl, payer)).toBe(start - PRICE * 3n);
    await syncChannels({ fromBlock: beforeFinalize });
    expect(await db.batchChannel.findUniqueOrThrow({ where: { id } })).toMatchObject({ balanceMicros: PRICE * 3n, withdrawRequestedAt: null });
  }, 120_000);
});
