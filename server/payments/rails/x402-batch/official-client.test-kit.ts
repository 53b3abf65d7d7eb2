// Test helpers: x402's official batch-settlement client (@x402/core's x402Client with @x402/evm's
// BatchSettlementEvmScheme, unmodified) paying with an anvil wallet, and what a test needs around it. Imported by tests
// only.
import { x402Client, x402HTTPClient } from "@x402/core/client";
import type { PaymentPayload } from "@x402/core/types";
import { BATCH_SETTLEMENT_ADDRESS, toClientEvmSigner } from "@x402/evm";
import { BatchSettlementEvmScheme, createBatchSettlementEIP3009DepositPayload, InMemoryClientChannelStorage } from "@x402/evm/batch-settlement/client";
import type { ClientEvmSigner } from "@x402/evm";
import { encodeFunctionData, type Abi, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import settlement from "../../../../contracts/X402BatchSettlement.json";
import { anvilPrivateKey } from "../../../../scripts/lib/local-chain";
import { publicClient, walletClient } from "../../../chain/clients";
import { NETWORK } from "../../../chain/config";
import { depositCall } from "./settlement-contract";
import type { ChannelConfig } from "./channel-terms";

export type OfficialBatchClient = { client: x402Client; http: x402HTTPClient; scheme: BatchSettlementEvmScheme; storage: InMemoryClientChannelStorage };

/** A random channel salt: a channel of its own for each client that wants one. */
export const freshSalt = (): Hex => `0x${Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("hex")}`;

/** The payer's signer; with an RPC it can also read the chain (the client's recovery of a channel's state). */
export function payerSigner(payerIndex: number, rpcUrl?: string): ClientEvmSigner {
  const account = privateKeyToAccount(anvilPrivateKey(payerIndex));
  return rpcUrl ? toClientEvmSigner(account, publicClient(rpcUrl) as never) : account;
}

/** The official client paying batch-settlement only (so it picks that offer over exact), on a channel of `salt`. */
export function officialBatchClient(payerIndex: number, opts: { salt?: Hex; rpcUrl?: string; maxAmountPerPayment?: `$${string}` } = {}): OfficialBatchClient {
  const storage = new InMemoryClientChannelStorage();
  const scheme = new BatchSettlementEvmScheme(payerSigner(payerIndex, opts.rpcUrl), { storage, salt: opts.salt ?? freshSalt() });
  const client = new x402Client().register(NETWORK, scheme);
  if (opts.maxAmountPerPayment) client.setSpendControls({ maxAmountPerPayment: opts.maxAmountPerPayment });
  return { client, http: new x402HTTPClient(client), scheme, storage };
}

/** The payload the client makes for a 402 (read as the official fetch wrapper reads it), and its headers. */
export async function payBatch(c: OfficialBatchClient, res: Response): Promise<{ payload: PaymentPayload; headers: Record<string, string> }> {
  const required = c.http.getPaymentRequiredResponse((name) => res.headers.get(name), await res.clone().json());
  const payload = await c.client.createPaymentPayload(required);
  return { payload, headers: c.http.encodePaymentSignatureHeader(payload) };
}

/** What the official client does with the answer (PAYMENT-RESPONSE, or a corrective 402): true when it resynced. */
export async function settleBatch(c: OfficialBatchClient, payload: PaymentPayload, res: Response): Promise<boolean> {
  const result = await c.http.processPaymentResult(payload, (name) => res.headers.get(name), res.status);
  return result.recovered;
}

/**
 * A channel funded on chain without us (the payer's own deposit transaction through the collector): the config the
 * official client builds for this payer and salt from a 402's requirements.
 */
export async function fundChannelDirectly(rpcUrl: string, payerIndex: number, config: ChannelConfig, amount: bigint): Promise<Hex> {
  const signer = privateKeyToAccount(anvilPrivateKey(payerIndex));
  const requirements = {
    scheme: "batch-settlement",
    network: NETWORK,
    asset: config.token,
    amount: "1",
    payTo: config.receiver,
    maxTimeoutSeconds: 300,
    extra: { name: "USD Coin", version: "2", receiverAuthorizer: config.receiverAuthorizer, withdrawDelay: config.withdrawDelay },
  };
  const { payload } = await createBatchSettlementEIP3009DepositPayload(signer, 2, requirements as never, config, amount.toString(), "1");
  const auth = (payload as { deposit: { authorization: { erc3009Authorization: { validAfter: string; validBefore: string; salt: Hex; signature: Hex } } } })
    .deposit.authorization.erc3009Authorization;
  const tx = depositCall(config, amount, auth);
  const wallet = walletClient(rpcUrl, anvilPrivateKey(payerIndex));
  const hash = await wallet.sendTransaction({ to: tx.to, data: tx.data, account: wallet.account, chain: wallet.chain });
  const receipt = await wallet.waitForTransactionReceipt({ hash });
  if (receipt.status !== "success") throw new Error(`direct deposit ${hash} reverted`);
  return hash;
}

/** A call of the settlement contract from a payer's wallet (its timed withdrawal, say); resolves once mined. */
export async function payerCalls(rpcUrl: string, payerIndex: number, functionName: string, args: unknown[]): Promise<Hex> {
  const wallet = walletClient(rpcUrl, anvilPrivateKey(payerIndex));
  const data = encodeFunctionData({ abi: settlement.abi as Abi, functionName, args });
  const hash = await wallet.sendTransaction({ to: BATCH_SETTLEMENT_ADDRESS, data, account: wallet.account, chain: wallet.chain });
  const receipt = await wallet.waitForTransactionReceipt({ hash });
  if (receipt.status !== "success") throw new Error(`${functionName} ${hash} reverted`);
  return hash;
}
