// The local facilitator: we verify and settle EIP-3009 authorizations ourselves, with our own gas wallet.
//
// Verify = the cheap checks against the requirements (recipient, exact amount, validity window) plus ONE simulation of
// the real transfer on the chain (`eth_call` of transferWithAuthorization from the gas wallet, sent as one plain
// JSON-RPC request: ../../chain/json-rpc.ts). The token contract
// itself then checks everything that matters: the EIP-712 signature against `from` (EOA or, on USDC, ERC-1271), the
// nonce not yet used, the balance, the window. Nothing is recovered locally: the signature is checked once, by the
// contract, not three times (x402's exact scheme recovers it locally on verify and again on settle).
// Settle = submit transferWithAuthorization and wait for its receipt; no second verification (the outbox only
// settles what was verified, and the contract refuses anything that no longer holds). The transaction is built
// locally (the gas wallet's nonces are handed out in-process, fees are cached for a few seconds, the gas limit is a
// fixed ceiling), so settling is one round trip where the RPC offers `eth_sendRawTransactionSync` (EIP-7966: the
// receipt in the answer; anvil and Base's endpoints do) and a send plus a receipt wait elsewhere.
//
// @x402/evm's exact facilitator stays the reference: a test runs both on the same payloads and they must agree.
import type { PaymentPayload, PaymentRequirements, SupportedResponse } from "@x402/core/types";
import { BaseError, ContractFunctionRevertedError, keccak256, type Address, type Hex } from "viem";
import { privateKeyToAccount, type PrivateKeyAccount } from "viem/accounts";
import { publicClient, walletClient } from "../../chain/clients";
import { ethCall, rpcRequest } from "../../chain/json-rpc";
import { encodeTransferWithAuthorization } from "../../chain/transfer-with-authorization-call";
import { signEip1559Transaction } from "../../chain/sign-transaction";
import { CHAIN_ID, NETWORK } from "../../chain/config";
import { TRANSIENT, type Facilitator, type SettleOptions, type SettleOutcome, type VerifyOutcome } from "./outcomes";

type ExactPayload = { signature: Hex; authorization: { from: Address; to: Address; value: string; validAfter: string; validBefore: string; nonce: Hex } };

/** A revert of the token contract, as the reason a client can act on. */
export function revertReason(message: string): string {
  if (/used or canceled|authorization is used/i.test(message)) return "authorization_used";
  if (/exceeds balance|insufficient/i.test(message)) return "insufficient_funds";
  if (/not yet valid/i.test(message)) return "authorization_not_yet_valid";
  if (/is expired/i.test(message)) return "authorization_expired";
  if (/signature/i.test(message)) return "invalid_signature";
  return "transfer_simulation_failed";
}

function errorMessage(e: unknown): string {
  if (e instanceof BaseError) {
    const reverted = e.walk((x) => x instanceof ContractFunctionRevertedError) as ContractFunctionRevertedError | null;
    if (reverted?.reason) return `execution reverted: ${reverted.reason}`;
    return e.details || e.shortMessage || e.message;
  }
  return e instanceof Error ? e.message : String(e);
}

const isRevert = (message: string) => /revert/i.test(message) && !TRANSIENT.test(message);

/** An eth_sendRawTransactionSync answer: a JSON-RPC receipt (quantities as hex strings). */
type RawReceipt = { status?: string; gasUsed?: string; effectiveGasPrice?: string };

/** gasUsed x effectiveGasPrice in wei, from hex quantities (raw receipts) or bigints (viem's); undefined when one is missing. */
export function receiptGasCost(gasUsed: string | bigint | undefined, effectiveGasPrice: string | bigint | undefined): bigint | undefined {
  if (gasUsed === undefined || effectiveGasPrice === undefined) return undefined;
  try {
    return BigInt(gasUsed) * BigInt(effectiveGasPrice);
  } catch {
    return undefined;
  }
}

/**
 * Gas limit of one transferWithAuthorization: a ceiling, not an estimate (an EOA-signed transfer uses about 60,000
 * to 90,000 on USDC; an ERC-1271 wallet's check costs more). Only the gas used is paid.
 */
const SETTLE_GAS_LIMIT = 250_000n;
/** How long fee data is reused; maxFeePerGas keeps twice the base fee of then, so a few blocks of rise still land. */
const FEES_TTL_MS = 3_000;

type Fees = { maxFeePerGas: bigint; maxPriorityFeePerGas: bigint; at: number };

/**
 * The gas wallet's next nonce, handed out in-process (one allocator per address, shared by every facilitator object of
 * the process). Read from the chain ('pending') the first time and after any failed send; a gap left by a send that
 * never reached the node would otherwise stall every later transaction.
 */
const nonces = new Map<string, { next: Promise<number> }>();

function nextNonce(rpcUrl: string, address: Address): Promise<number> {
  let n = nonces.get(address);
  if (!n) nonces.set(address, (n = { next: publicClient(rpcUrl).getTransactionCount({ address, blockTag: "pending" }) }));
  const mine = n.next;
  n.next = mine.then((x) => x + 1);
  mine.catch(() => nonces.delete(address));
  return mine;
}

/** A node's refusal of a transaction whose nonce is already used (geth, anvil, reth wordings). */
const NONCE_TAKEN = /nonce too low|nonce has already been used|nonce is too low|already used nonce/i;

function resetNonce(address: Address): void {
  nonces.delete(address);
}

export class LocalFacilitator implements Facilitator {
  readonly kind = "local" as const;
  private readonly gasWallet: Address;
  private readonly account: PrivateKeyAccount;
  private fees: Promise<Fees> | null = null;
  /** Whether the RPC answers eth_sendRawTransactionSync; learnt on first use. */
  private syncSend: boolean | null = null;

  constructor(
    private readonly rpcUrl: string,
    private readonly privateKey: Hex,
  ) {
    this.account = privateKeyToAccount(privateKey);
    this.gasWallet = this.account.address;
  }

  private call(p: ExactPayload): Hex {
    // The `bytes signature` overload: on USDC it accepts EOA and ERC-1271 signatures alike.
    return encodeTransferWithAuthorization(p.authorization, p.signature);
  }

  async verify(payload: PaymentPayload, requirements: PaymentRequirements): Promise<VerifyOutcome> {
    const p = payload.payload as unknown as ExactPayload;
    const a = p?.authorization;
    if (!a || typeof p.signature !== "string") return { type: "invalid", reason: "invalid_payload" };
    if (requirements.scheme !== "exact" || requirements.network !== NETWORK) return { type: "invalid", reason: "unsupported_scheme" };
    if (a.to.toLowerCase() !== requirements.payTo.toLowerCase()) return { type: "invalid", reason: "recipient_mismatch" };
    if (a.value !== requirements.amount) return { type: "invalid", reason: "amount_mismatch" };
    const now = BigInt(Math.floor(Date.now() / 1000));
    // Six seconds of margin: the authorization must still be valid when the settlement lands (as x402 asks).
    if (BigInt(a.validBefore) < now + 6n) return { type: "invalid", reason: "authorization_expired" };
    if (BigInt(a.validAfter) > now) return { type: "invalid", reason: "authorization_not_yet_valid" };
    try {
      await ethCall(this.rpcUrl, { from: this.gasWallet, to: requirements.asset as Address, data: this.call(p) });
      return { type: "valid", payer: a.from };
    } catch (e) {
      const message = errorMessage(e);
      if (isRevert(message)) return { type: "invalid", reason: revertReason(message), message };
      return { type: "unavailable", detail: message.split("\n")[0]! };
    }
  }

  private currentFees(): Promise<Fees> {
    const cached = this.fees;
    const fresh = (f: Fees) => Date.now() - f.at < FEES_TTL_MS;
    const load = () =>
      publicClient(this.rpcUrl)
        .estimateFeesPerGas()
        .then((f) => ({ maxFeePerGas: f.maxFeePerGas * 2n, maxPriorityFeePerGas: f.maxPriorityFeePerGas, at: Date.now() }));
    const next = cached ? cached.then((f) => (fresh(f) ? f : load())).catch(load) : load();
    this.fees = next;
    next.catch(() => (this.fees = null));
    return next;
  }

  /** The signed transaction: built here, not by viem's wallet (which asks the node for the nonce and fills on every send). */
  private async signedCall(to: Address, data: Hex, gas: bigint): Promise<{ raw: Hex; hash: Hex; nonce: number }> {
    const fees = await this.currentFees();
    const nonce = await nextNonce(this.rpcUrl, this.account.address);
    const raw = signEip1559Transaction(this.privateKey, {
      type: "eip1559",
      chainId: CHAIN_ID,
      nonce,
      to,
      data,
      gas,
      maxFeePerGas: fees.maxFeePerGas,
      maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
    });
    return { raw, hash: keccak256(raw), nonce };
  }

  /** Send a signed transaction and wait for its receipt: its status, gas used and what the gas wallet paid. */
  private async broadcast(signed: { raw: Hex; hash: Hex }): Promise<{ status?: string; gasUsed?: bigint; gasCostWei?: bigint }> {
    if (this.syncSend !== false) {
      try {
        const receipt = await rpcRequest<RawReceipt | null>(this.rpcUrl, "eth_sendRawTransactionSync", [signed.raw]);
        this.syncSend = true;
        return {
          status: receipt?.status,
          gasUsed: receipt?.gasUsed ? BigInt(receipt.gasUsed) : undefined,
          gasCostWei: receiptGasCost(receipt?.gasUsed, receipt?.effectiveGasPrice),
        };
      } catch (e) {
        // An RPC without EIP-7966 says so before anything is broadcast; remember it and send the usual way.
        if (this.syncSend === null && /eth_sendRawTransactionSync|method not found|not supported|-32601/i.test(errorMessage(e))) this.syncSend = false;
        else throw e;
      }
    }
    await publicClient(this.rpcUrl).sendRawTransaction({ serializedTransaction: signed.raw });
    const receipt = await walletClient(this.rpcUrl, this.privateKey).waitForTransactionReceipt({ hash: signed.hash });
    return { status: receipt.status, gasUsed: receipt.gasUsed, gasCostWei: receiptGasCost(receipt.gasUsed, receipt.effectiveGasPrice) };
  }

  /**
   * Any contract call from the gas wallet (the x402-batch rail's deposits and claims), sharing the settlements' nonces:
   * signed, sent, its receipt awaited. `onSigned` is told the hash before the transaction is sent (an outbox records it
   * first, so a crash after the send can find it). Throws when the node cannot be reached or refuses it.
   */
  async sendCall(
    call: { to: Address; data: Hex; gas: bigint },
    onSigned?: (hash: Hex) => Promise<void> | void,
  ): Promise<{ transaction: Hex; success: boolean; gasUsed?: bigint; gasCostWei?: bigint }> {
    for (let attempt = 1; ; attempt++) {
      const signed = await this.signedCall(call.to, call.data, call.gas);
      await onSigned?.(signed.hash);
      try {
        const r = await this.broadcast(signed);
        return { transaction: signed.hash, success: r.status === "0x1" || r.status === "success", gasUsed: r.gasUsed, gasCostWei: r.gasCostWei };
      } catch (e) {
        resetNonce(this.account.address);
        // Another sender took the nonce we had cached: nothing of ours is in flight, sign again with the chain's.
        if (attempt === 1 && NONCE_TAKEN.test(errorMessage(e))) continue;
        throw e;
      }
    }
  }

  async settle(payload: PaymentPayload, requirements: PaymentRequirements, opts: SettleOptions = {}): Promise<SettleOutcome> {
    const p = payload.payload as unknown as ExactPayload;
    const asset = requirements.asset as Address;
    let transaction: Hex | undefined;
    for (let attempt = 1; ; attempt++)
      try {
        return await this.send(p, asset, opts, (hash) => (transaction = hash));
      } catch (e) {
        const message = errorMessage(e);
        // The node may or may not have taken it: read the gas wallet's nonce from the chain again before the next send.
        resetNonce(this.account.address);
        // Another instance sharing this gas wallet used the nonce we had cached: the node refused our transaction
        // outright, so nothing of ours is in flight; sign again with the chain's nonce, once, instead of leaving the
        // charge to the reconciler's next pass.
        if (attempt === 1 && NONCE_TAKEN.test(message)) continue;
        // Refused outright as a revert: this authorization will never settle.
        if (isRevert(message)) return { type: "failed", reason: revertReason(message), message };
        // No receipt seen, broadcast or not: the reconciler asks the chain (authorizationState) before anything is re-sent.
        return { type: "pending", detail: message.split("\n")[0]!, ...(transaction ? { transaction } : {}) };
      }
  }

  private async send(p: ExactPayload, asset: Address, opts: SettleOptions, signedAs: (hash: Hex) => void): Promise<SettleOutcome> {
    {
      const signed = await this.signedCall(asset, this.call(p), SETTLE_GAS_LIMIT);
      const transaction = signed.hash;
      signedAs(transaction);
      // The hash is known before the node has it: a caller delivering before inclusion may answer with it now.
      opts.onSubmitted?.(transaction);
      // What the gas wallet paid for this transaction, from its receipt (the console's margin): read off the
      // receipt this call already has, so it costs no extra round trip.
      const { status, gasCostWei } = await this.broadcast(signed);
      if (status === "0x1" || status === "success")
        return { type: "settled", transaction, payer: p.authorization.from, ...(gasCostWei !== undefined ? { gasCostWei } : {}) };
      return { type: "failed", reason: await this.whyReverted(p, asset), transaction };
    }
  }

  /** A mined transfer reverted (the fixed gas limit skips estimation): ask the chain why, for a reason a client can act on. */
  private async whyReverted(p: ExactPayload, asset: Address): Promise<string> {
    try {
      await ethCall(this.rpcUrl, { from: this.gasWallet, to: asset, data: this.call(p) });
      return "transaction_reverted";
    } catch (e) {
      const message = errorMessage(e);
      return isRevert(message) ? revertReason(message) : "transaction_reverted";
    }
  }

  async supported(): Promise<SupportedResponse> {
    return { kinds: [{ x402Version: 2, scheme: "exact", network: NETWORK }], extensions: [], signers: { [NETWORK]: [this.gasWallet] } } as SupportedResponse;
  }
}
