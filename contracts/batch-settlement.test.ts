// The batch-settlement channel contract (X402BatchSettlement.sol + ERC3009DepositCollector.sol) on a real anvil of its
// own (this file moves the chain's clock), driven the way x402's official code drives it: deposits and vouchers signed
// by @x402/evm's batch-settlement client, identities and digests checked against @x402/evm's typed data. What a payer
// and a receiver can and cannot make it do: deposit once per signature, claim in batches, never above what a voucher
// signed or what the channel holds, never twice; refunds and the timed withdrawal return unclaimed escrow to the payer.
import { BATCH_SETTLEMENT_ADDRESS, BATCH_SETTLEMENT_DOMAIN, ERC3009_DEPOSIT_COLLECTOR_ADDRESS, claimBatchTypes, refundTypes, voucherTypes } from "@x402/evm";
import { computeChannelId, createBatchSettlementEIP3009DepositPayload, signVoucher } from "@x402/evm/batch-settlement/client";
import type { ChannelConfig } from "@x402/evm";
import { BaseError, ContractFunctionRevertedError, encodeAbiParameters, encodeFunctionData, hashTypedData, type Abi, type Address, type Hex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { anvilAddress, anvilPrivateKey } from "../scripts/lib/local-chain";
import { publicClient, walletClient } from "../server/chain/clients";
import { CHAIN_ID, NETWORK, USDC_ADDRESS, USDC_DOMAIN } from "../server/chain/config";
import { TOKEN_ABI } from "../server/chain/token";
import { startChainForTests } from "../server/testing/gateway";
import collectorArtifact from "./ERC3009DepositCollector.json";
import settlementArtifact from "./X402BatchSettlement.json";

const ABI = settlementArtifact.abi as Abi;
const COLLECTOR_ABI = collectorArtifact.abi as Abi;
const WITHDRAW_DELAY = 900;
const RECEIVER = anvilAddress(10);
const authorizerKey = generatePrivateKey();
const authorizer = privateKeyToAccount(authorizerKey);

let chain: { rpcUrl: string; stop: () => Promise<void> };
let rpcUrl: string;

beforeAll(async () => {
  // A chain of its own, the file's wallets funded on it as on the shared one.
  chain = await startChainForTests({ ownChain: "it moves the chain's clock past the withdraw delay (evm_increaseTime)" });
  rpcUrl = chain.rpcUrl;
}, 60_000);
afterAll(() => chain?.stop());

const relayer = () => walletClient(rpcUrl, anvilPrivateKey(0));
const read = <T>(functionName: string, args: unknown[]) =>
  publicClient(rpcUrl).readContract({ address: BATCH_SETTLEMENT_ADDRESS, abi: ABI, functionName, args }) as Promise<T>;
const usdc = (address: Address) =>
  publicClient(rpcUrl).readContract({ address: USDC_ADDRESS, abi: TOKEN_ABI, functionName: "balanceOf", args: [address] }) as Promise<bigint>;

/** Send a call of the settlement contract from anvil account `from`; resolves once mined (and throws its revert). */
async function send(functionName: string, args: unknown[], from = 0): Promise<{ gasUsed: bigint }> {
  const wallet = walletClient(rpcUrl, anvilPrivateKey(from));
  // Simulate first: a revert surfaces with its custom error decoded, and nothing is mined.
  const { request } = await wallet.simulateContract({ address: BATCH_SETTLEMENT_ADDRESS, abi: ABI, functionName, args, account: wallet.account });
  const hash = await wallet.writeContract(request);
  const receipt = await wallet.waitForTransactionReceipt({ hash });
  expect(receipt.status).toBe("success");
  return { gasUsed: receipt.gasUsed };
}

/** The custom error a call reverts with (null when it does not revert). */
async function revertOf(functionName: string, args: unknown[], from = 0): Promise<string | null> {
  try {
    await send(functionName, args, from);
    return null;
  } catch (e) {
    const reverted = e instanceof BaseError ? (e.walk((x) => x instanceof ContractFunctionRevertedError) as ContractFunctionRevertedError | null) : null;
    // A custom error by name; a require's message (Error(string), the token's) as its text.
    const name = reverted?.data?.errorName;
    return (name && name !== "Error" ? name : reverted?.reason) ?? (e instanceof Error ? e.message.split("\n")[0]! : String(e));
  }
}

function channelOf(payerIndex: number, salt: Hex = `0x${"00".repeat(32)}`): ChannelConfig {
  const payer = anvilAddress(payerIndex);
  return {
    payer,
    payerAuthorizer: payer,
    receiver: RECEIVER,
    receiverAuthorizer: authorizer.address,
    token: USDC_ADDRESS,
    withdrawDelay: WITHDRAW_DELAY,
    salt,
  };
}

const requirements = (amount: string) => ({
  scheme: "batch-settlement",
  network: NETWORK,
  asset: USDC_ADDRESS,
  amount,
  payTo: RECEIVER,
  maxTimeoutSeconds: 86_400, // this file moves the chain clock forward: deposits signed for a day stay valid
  extra: { ...USDC_DOMAIN, receiverAuthorizer: authorizer.address, withdrawDelay: WITHDRAW_DELAY },
});

/** A deposit signed by the official client, as the facilitator submits it: deposit(config, amount, collector, data). */
async function depositArgs(payerIndex: number, config: ChannelConfig, amount: bigint) {
  const signer = privateKeyToAccount(anvilPrivateKey(payerIndex));
  const { payload } = await createBatchSettlementEIP3009DepositPayload(signer, 2, requirements("1000") as never, config, amount.toString(), "1000");
  const auth = (payload as { deposit: { authorization: { erc3009Authorization: { validAfter: string; validBefore: string; salt: Hex; signature: Hex } } } })
    .deposit.authorization.erc3009Authorization;
  const data = encodeAbiParameters(
    [{ type: "uint256" }, { type: "uint256" }, { type: "uint256" }, { type: "bytes" }],
    [BigInt(auth.validAfter), BigInt(auth.validBefore), BigInt(auth.salt), auth.signature],
  );
  return [config, amount, ERC3009_DEPOSIT_COLLECTOR_ADDRESS, data] as const;
}

const voucher = (payerIndex: number, config: ChannelConfig, max: bigint) =>
  signVoucher(privateKeyToAccount(anvilPrivateKey(payerIndex)), computeChannelId(config, NETWORK), max.toString(), NETWORK);

type Row = { voucher: { channel: ChannelConfig; maxClaimableAmount: bigint }; signature: Hex; totalClaimed: bigint };

async function row(payerIndex: number, config: ChannelConfig, max: bigint, total = max): Promise<Row> {
  return { voucher: { channel: config, maxClaimableAmount: max }, signature: (await voucher(payerIndex, config, max)).signature, totalClaimed: total };
}

/** The receiver authorizer's ClaimBatch signature over the rows, as @x402/evm's typed data defines it. */
function authorize(rows: Row[], key: Hex = authorizerKey): Promise<Hex> {
  return privateKeyToAccount(key).signTypedData({
    domain: { ...BATCH_SETTLEMENT_DOMAIN, chainId: CHAIN_ID, verifyingContract: BATCH_SETTLEMENT_ADDRESS },
    types: claimBatchTypes,
    primaryType: "ClaimBatch",
    message: {
      claims: rows.map((r) => ({
        channelId: computeChannelId(r.voucher.channel, NETWORK),
        maxClaimableAmount: r.voucher.maxClaimableAmount,
        totalClaimed: r.totalClaimed,
      })),
    },
  });
}

const channelState = async (config: ChannelConfig) => {
  const [balance, totalClaimed] = await read<[bigint, bigint]>("channels", [computeChannelId(config, NETWORK)]);
  return { balance, totalClaimed };
};
const received = async () => {
  const [totalClaimed, totalSettled] = await read<[bigint, bigint]>("receivers", [RECEIVER, USDC_ADDRESS]);
  return { totalClaimed, totalSettled };
};

async function warp(seconds: number): Promise<void> {
  const rpc = (method: string, params: unknown[]) =>
    fetch(rpcUrl, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }) });
  await rpc("evm_increaseTime", [seconds]);
  await rpc("evm_mine", []);
}

describe("identities and digests", () => {
  it("computes channel ids and EIP-712 digests exactly as @x402/evm does (the official client's signatures verify)", async () => {
    const config = channelOf(1, `0x${"11".repeat(32)}`);
    const id = computeChannelId(config, NETWORK);
    expect(await read<Hex>("getChannelId", [config])).toBe(id);
    const domain = { ...BATCH_SETTLEMENT_DOMAIN, chainId: CHAIN_ID, verifyingContract: BATCH_SETTLEMENT_ADDRESS } as const;
    expect(await read<Hex>("getVoucherDigest", [id, 12345n])).toBe(
      hashTypedData({ domain, types: voucherTypes, primaryType: "Voucher", message: { channelId: id, maxClaimableAmount: 12345n } }),
    );
    expect(await read<Hex>("getRefundDigest", [id, 7n, 500n])).toBe(
      hashTypedData({ domain, types: refundTypes, primaryType: "Refund", message: { channelId: id, nonce: 7n, amount: 500n } }),
    );
    const rows = [await row(1, config, 100n, 60n), await row(2, channelOf(2), 300n)];
    expect(await read<Hex>("getClaimBatchDigest", [rows])).toBe(
      hashTypedData({
        domain,
        types: claimBatchTypes,
        primaryType: "ClaimBatch",
        message: {
          claims: rows.map((r) => ({
            channelId: computeChannelId(r.voucher.channel, NETWORK),
            maxClaimableAmount: r.voucher.maxClaimableAmount,
            totalClaimed: r.totalClaimed,
          })),
        },
      }),
    );
  });
});

describe("deposits", () => {
  it("moves the payer's signed deposit into its channel once; the same signature never deposits twice", async () => {
    const config = channelOf(1, `0x${"01".repeat(32)}`);
    const before = await usdc(config.payer);
    const args = await depositArgs(1, config, 2_000_000n);
    await send("deposit", [...args]);
    expect(await usdc(config.payer)).toBe(before - 2_000_000n);
    expect(await channelState(config)).toEqual({ balance: 2_000_000n, totalClaimed: 0n });
    // Replayed by anyone: the token's nonce (bound to this channel) is spent.
    expect(await revertOf("deposit", [...args], 3)).toMatch(/authorization is used|reverted/i);
    expect(await channelState(config)).toEqual({ balance: 2_000_000n, totalClaimed: 0n });
  });

  it("refuses a deposit signed for another channel, a collector called by anyone but the settlement contract, and a collector that pays nothing", async () => {
    const a = channelOf(1, `0x${"02".repeat(32)}`);
    const b = channelOf(1, `0x${"03".repeat(32)}`);
    const [, , collector, data] = await depositArgs(1, a, 1_000_000n);
    // The authorization's nonce is keccak(channelId, salt): channel b's nonce is not the one signed.
    expect(await revertOf("deposit", [b, 1_000_000n, collector, data])).toMatch(/invalid signature|reverted/i);
    // Straight to the collector: whoever calls collect would receive the payer's tokens, so only the settlement contract may.
    const wallet = relayer();
    await expect(
      wallet.simulateContract({
        address: ERC3009_DEPOSIT_COLLECTOR_ADDRESS,
        abi: COLLECTOR_ABI,
        functionName: "collect",
        args: [a.payer, USDC_ADDRESS, 1_000_000n, computeChannelId(a, NETWORK), data],
        account: wallet.account,
      }),
    ).rejects.toThrow(/OnlySettlement/);
    // A "collector" with no code moves nothing: the deposit is refused before any balance is credited.
    expect(await revertOf("deposit", [a, 1_000_000n, anvilAddress(3), "0x"])).not.toBeNull();
    expect(await channelState(a)).toEqual({ balance: 0n, totalClaimed: 0n });
  });
});

describe("claims", () => {
  const c1 = channelOf(1, `0x${"a1".repeat(32)}`);
  const c2 = channelOf(2, `0x${"a2".repeat(32)}`);
  beforeAll(async () => {
    await send("deposit", [...(await depositArgs(1, c1, 1_000_000n))]);
    await send("deposit", [...(await depositArgs(2, c2, 1_000_000n))]);
  });

  it("claims many channels' vouchers in one transaction, and settle pays the receiver what was claimed, once", async () => {
    const before = await received();
    const receiverBefore = await usdc(RECEIVER);
    const rows = [await row(1, c1, 40_000n, 30_000n), await row(2, c2, 20_000n)];
    await send("claimWithSignature", [rows, await authorize(rows)], 3);
    expect(await channelState(c1)).toEqual({ balance: 1_000_000n, totalClaimed: 30_000n });
    expect(await channelState(c2)).toEqual({ balance: 1_000_000n, totalClaimed: 20_000n });
    expect((await received()).totalClaimed - before.totalClaimed).toBe(50_000n);
    await send("settle", [RECEIVER, USDC_ADDRESS], 3);
    expect((await usdc(RECEIVER)) - receiverBefore).toBe(50_000n);
    // Nothing more claimed: settling again pays nothing.
    await send("settle", [RECEIVER, USDC_ADDRESS], 3);
    expect((await usdc(RECEIVER)) - receiverBefore).toBe(50_000n);
  });

  it("never claims more than the voucher signed, or than the channel holds", async () => {
    const over = [await row(1, c1, 50_000n, 50_001n)];
    expect(await revertOf("claimWithSignature", [over, await authorize(over)])).toBe("ClaimExceedsVoucher");
    const beyond = [await row(1, c1, 2_000_000n)];
    expect(await revertOf("claimWithSignature", [beyond, await authorize(beyond)])).toBe("ClaimExceedsBalance");
  });

  it("claims a voucher once: the same claim again, or an older voucher, takes nothing", async () => {
    const rows = [await row(1, c1, 60_000n)];
    await send("claimWithSignature", [rows, await authorize(rows)]);
    const after = { channel: await channelState(c1), receiver: await received() };
    // Resubmitted (a relayer retrying after a crash), and an older, lower voucher: no-ops.
    await send("claimWithSignature", [rows, await authorize(rows)]);
    const older = [await row(1, c1, 40_000n)];
    await send("claimWithSignature", [older, await authorize(older)]);
    expect(await channelState(c1)).toEqual(after.channel);
    expect(await received()).toEqual(after.receiver);
  });

  it("checks every signature: the payer's voucher (signer, channel, chain) and the receiver authorizer's batch", async () => {
    const good = await row(1, c1, 70_000n);
    // Signed by someone else than the channel's payer authorizer.
    const stranger = { ...good, signature: (await voucher(3, c1, 70_000n)).signature };
    expect(await revertOf("claimWithSignature", [[stranger], await authorize([stranger])])).toBe("InvalidVoucherSignature");
    // The payer's signature for another of its channels.
    const otherChannel = { ...good, signature: (await voucher(1, channelOf(1, `0x${"a9".repeat(32)}`), 70_000n)).signature };
    expect(await revertOf("claimWithSignature", [[otherChannel], await authorize([otherChannel])])).toBe("InvalidVoucherSignature");
    // The same voucher signed under another chain's domain (Base Sepolia).
    const sepolia = "eip155:84532";
    const otherChain = {
      ...good,
      signature: (await signVoucher(privateKeyToAccount(anvilPrivateKey(1)), computeChannelId(c1, sepolia), "70000", sepolia)).signature,
    };
    expect(await revertOf("claimWithSignature", [[otherChain], await authorize([otherChain])])).toBe("InvalidVoucherSignature");
    // The same bytes with s in the upper half (a malleated copy of a valid signature).
    const sig = good.signature;
    const n = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
    const s = BigInt(`0x${sig.slice(66, 130)}`);
    const v = parseInt(sig.slice(130, 132), 16);
    const malleated = { ...good, signature: `${sig.slice(0, 66)}${(n - s).toString(16).padStart(64, "0")}${(v === 27 ? 28 : 27).toString(16)}` as Hex };
    expect(await revertOf("claimWithSignature", [[malleated], await authorize([malleated])])).toBe("InvalidVoucherSignature");
    // The batch authorized by a key that is not the channel's receiver authorizer; rows of two authorizers.
    expect(await revertOf("claimWithSignature", [[good], await authorize([good], generatePrivateKey())])).toBe("InvalidAuthorizerSignature");
    const foreign = { ...(await row(2, { ...c2, receiverAuthorizer: anvilAddress(4) }, 10n)) };
    expect(await revertOf("claimWithSignature", [[good, foreign], await authorize([good, foreign])])).toBe("AuthorizerMismatch");
    // `claim` without a signature: only the receiver (or its authorizer) may send it.
    expect(await revertOf("claim", [[good]], 3)).toBe("NotReceiverSide");
    await send("claim", [[good]], 10);
    expect((await channelState(c1)).totalClaimed).toBe(70_000n);
  });

  it("claims and settles in one transaction (multicall)", async () => {
    const rows = [await row(1, c1, 80_000n), await row(2, c2, 30_000n)];
    const before = await usdc(RECEIVER);
    const owed = (await received()).totalClaimed - (await received()).totalSettled;
    const calls = [
      encodeFunctionData({ abi: ABI, functionName: "claimWithSignature", args: [rows, await authorize(rows)] }),
      encodeFunctionData({ abi: ABI, functionName: "settle", args: [RECEIVER, USDC_ADDRESS] }),
    ];
    await send("multicall", [calls], 3);
    // What earlier claims left unsettled, and the 10,000 each channel's new voucher adds.
    expect((await usdc(RECEIVER)) - before).toBe(owed + 10_000n + 10_000n);
    expect((await received()).totalClaimed).toBe((await received()).totalSettled);
  });
});

describe("unclaimed escrow goes back to the payer", () => {
  it("after the withdraw delay, and only to the payer side; claims made meanwhile stay the receiver's", async () => {
    const config = channelOf(2, `0x${"b1".repeat(32)}`);
    await send("deposit", [...(await depositArgs(2, config, 500_000n))]);
    const signed = [await row(2, config, 100_000n)];
    expect(await revertOf("initiateWithdraw", [config, 500_000n], 3)).toBe("NotPayerSide");
    await send("initiateWithdraw", [config, 500_000n], 2);
    expect(await revertOf("finalizeWithdraw", [config], 2)).toBe("WithdrawDelayNotElapsed");
    // The receiver claims its voucher within the window: the withdrawal can only take what is still unclaimed.
    await send("claimWithSignature", [signed, await authorize(signed)]);
    await warp(WITHDRAW_DELAY + 1);
    const before = await usdc(config.payer);
    await send("finalizeWithdraw", [config], 2);
    expect((await usdc(config.payer)) - before).toBe(400_000n);
    expect(await channelState(config)).toEqual({ balance: 100_000n, totalClaimed: 100_000n });
    // The voucher's value cannot be claimed twice, and a withdrawal cannot be finalized twice.
    await send("claimWithSignature", [signed, await authorize(signed)]);
    expect(await channelState(config)).toEqual({ balance: 100_000n, totalClaimed: 100_000n });
    expect(await revertOf("finalizeWithdraw", [config], 2)).toBe("NoPendingWithdrawal");
  });

  it("refuses a withdrawal above the unclaimed escrow", async () => {
    const config = channelOf(1, `0x${"b2".repeat(32)}`);
    await send("deposit", [...(await depositArgs(1, config, 100_000n))]);
    const claimed = [await row(1, config, 40_000n)];
    await send("claimWithSignature", [claimed, await authorize(claimed)]);
    expect(await revertOf("initiateWithdraw", [config, 60_001n], 1)).toBe("WithdrawExceedsAvailable");
  });

  it("cooperatively, with the receiver authorizer's signature at the current nonce: once, capped to the unclaimed escrow", async () => {
    const config = channelOf(1, `0x${"b3".repeat(32)}`);
    const id = computeChannelId(config, NETWORK);
    await send("deposit", [...(await depositArgs(1, config, 300_000n))]);
    const claimed = [await row(1, config, 50_000n)];
    await send("claimWithSignature", [claimed, await authorize(claimed)]);
    await send("initiateWithdraw", [config, 250_000n], 1);
    const sign = (nonce: bigint, amount: bigint, key: Hex = authorizerKey) =>
      privateKeyToAccount(key).signTypedData({
        domain: { ...BATCH_SETTLEMENT_DOMAIN, chainId: CHAIN_ID, verifyingContract: BATCH_SETTLEMENT_ADDRESS },
        types: refundTypes,
        primaryType: "Refund",
        message: { channelId: id, nonce, amount },
      });
    expect(await revertOf("refundWithSignature", [config, 100_000n, 0n, await sign(0n, 100_000n, generatePrivateKey())], 3)).toBe("InvalidAuthorizerSignature");
    const before = await usdc(config.payer);
    const sig = await sign(0n, 100_000n);
    await send("refundWithSignature", [config, 100_000n, 0n, sig], 3);
    expect((await usdc(config.payer)) - before).toBe(100_000n);
    expect(await read<bigint>("refundNonce", [id])).toBe(1n);
    // The pending withdrawal no longer needs what was refunded.
    expect((await read<[bigint, number]>("pendingWithdrawals", [id]))[0]).toBe(150_000n);
    // The same signature again: its nonce is spent.
    expect(await revertOf("refundWithSignature", [config, 100_000n, 0n, sig], 3)).toBe("InvalidRefundNonce");
    // More than is unclaimed: capped, the claimed 50,000 stays the receiver's.
    await send("refundWithSignature", [config, 10_000_000n, 1n, await sign(1n, 10_000_000n)], 3);
    expect((await usdc(config.payer)) - before).toBe(250_000n);
    expect(await channelState(config)).toEqual({ balance: 50_000n, totalClaimed: 50_000n });
    // A direct refund only from the receiver side.
    expect(await revertOf("refund", [config, 1n], 3)).toBe("NotReceiverSide");
  });
});
