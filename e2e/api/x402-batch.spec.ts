// x402's batch-settlement scheme against the built app over HTTP, paid by the official client as it ships: @x402/fetch's
// wrapFetchWithPayment over @x402/core's x402Client with @x402/evm's BatchSettlementEvmScheme (no code of ours on the
// client side). One deposit opens the channel on the local chain; every next call is a voucher, and no USDC moves until
// the seller claims. A second instance of the app serves the same channel (its state is PostgreSQL's), and a client
// that lost its state is resynced by the corrective 402.
import { expect, test } from "@playwright/test";
import { x402Client } from "@x402/core/client";
import { decodePaymentResponseHeader } from "@x402/core/http";
import { BATCH_SETTLEMENT_ADDRESS, toClientEvmSigner } from "@x402/evm";
import { BatchSettlementEvmScheme } from "@x402/evm/batch-settlement/client";
import { wrapFetchWithPayment } from "@x402/fetch";
import { createPublicClient, erc20Abi, http, parseAbi, type Hex } from "viem";
import { mnemonicToAccount } from "viem/accounts";
import { base } from "viem/chains";
import { query, stackEnv, startAppInstance } from "../stack";

const USDC = "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913";
const PATH = "/api/v1/aggregates/AAPL?from=2017-02-01&to=2017-02-28";
const PRICE = 20_000n;
// anvil account 8 (its default mnemonic): a demo payer wallet no other spec pays with.
const PAYER = mnemonicToAccount("test test test test test test test test test test test junk", { addressIndex: 8 });
const SALT: Hex = `0x${"b8".repeat(32)}`;

const chain = () => createPublicClient({ chain: base, transport: http(stackEnv().RPC_URL) });
const usdc = (address: Hex) => chain().readContract({ address: USDC, abi: erc20Abi, functionName: "balanceOf", args: [address] });
const channels = parseAbi(["function channels(bytes32) view returns (uint128 balance, uint128 totalClaimed)"]);

/** The official client, paying batch-settlement only; it reads the chain to recover a channel it has no record of. */
function batchFetch() {
  const signer = toClientEvmSigner(PAYER, chain() as never);
  const client = new x402Client().register("eip155:8453", new BatchSettlementEvmScheme(signer, { salt: SALT }));
  return wrapFetchWithPayment(fetch, client);
}

test.describe.serial("batch-settlement with the official client", () => {
  let second: { url: string; stop: () => void } | undefined;
  test.afterAll(() => second?.stop());

  const pay = batchFetch();
  let channelId = "";

  test("deposits once, then pays each call with a voucher: data served, no USDC moves per call", async ({ baseURL }) => {
    const payer = PAYER.address;
    const before = await usdc(payer);
    const receipts = [];
    for (let i = 0; i < 5; i++) {
      const res = await pay(`${baseURL}${PATH}`);
      expect(res.status, await res.clone().text()).toBe(200);
      expect((await res.json()).ticker).toBe("AAPL");
      receipts.push(decodePaymentResponseHeader(res.headers.get("payment-response")!));
    }
    // The first call's answer names its deposit transaction and amount; the others move nothing on chain.
    expect(receipts[0]).toMatchObject({ success: true, network: "eip155:8453" });
    expect(receipts[0]!.transaction).toMatch(/^0x[0-9a-f]{64}$/);
    const deposit = BigInt(receipts[0]!.amount!);
    for (const r of receipts.slice(1)) expect(r).toMatchObject({ success: true, transaction: "", amount: "" });
    expect(receipts.map((r) => (r.extra as { channelState: { chargedCumulativeAmount: string } }).channelState.chargedCumulativeAmount)).toEqual(
      [1n, 2n, 3n, 4n, 5n].map((n) => (PRICE * n).toString()),
    );
    expect(before - (await usdc(payer))).toBe(deposit);
    channelId = (receipts[0]!.extra as { channelState: { channelId: string } }).channelState.channelId;
    const [balance, claimed] = await chain().readContract({
      address: BATCH_SETTLEMENT_ADDRESS,
      abi: channels,
      functionName: "channels",
      args: [channelId as Hex],
    });
    expect([balance, claimed]).toEqual([deposit, 0n]);
    const rows = await query<{ n: string }>(`select count(*)::text as n from payments where rail = 'x402-batch' and payer = $1`, [payer.toLowerCase()]);
    expect(rows[0]!.n).toBe("5");
  });

  test("a second instance serves the same channel, call after call, alternating", async ({ baseURL }) => {
    test.setTimeout(120_000);
    second = await startAppInstance(Number(process.env.E2E_PORT ?? 3100) + 31);
    for (let i = 0; i < 4; i++) {
      const res = await pay(`${i % 2 ? baseURL : second.url}${PATH}`);
      expect(res.status, await res.clone().text()).toBe(200);
    }
    const rows = await query<{ charged: string }>(`select charged_micros::text as charged from batch_channels where id = $1`, [channelId]);
    expect(rows[0]!.charged).toBe((PRICE * 9n).toString());
  });

  test("a client that lost its state (a new process) is resynced by the corrective 402 and pays on", async ({ baseURL }) => {
    const fresh = batchFetch();
    const res = await fresh(`${baseURL}${PATH}`);
    expect(res.status, await res.clone().text()).toBe(200);
    const r = decodePaymentResponseHeader(res.headers.get("payment-response")!);
    expect((r.extra as { channelState: { chargedCumulativeAmount: string } }).channelState.chargedCumulativeAmount).toBe((PRICE * 10n).toString());
  });
});
