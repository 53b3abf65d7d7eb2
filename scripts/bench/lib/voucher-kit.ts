// Voucher-paid calls for the gateway bench (../gateway.ts): channels opened by x402's official batch-settlement client
// (@x402/evm's BatchSettlementEvmScheme; its first call deposits), and proofs made ahead of timing, as the x402 and MPP
// rows make theirs. A voucher is signed on its channel's charged total, so the proofs of one channel are made for its
// successive steps (the client's own record moved forward step by step, exactly as its answers would move it) and must
// be sent in that order: the load runs one caller per channel.
import { x402Client, x402HTTPClient } from "@x402/core/client";
import { toClientEvmSigner } from "@x402/evm";
import { BatchSettlementEvmScheme, InMemoryClientChannelStorage } from "@x402/evm/batch-settlement/client";
import { createPublicClient, http, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { base } from "viem/chains";
import { anvilPrivateKey } from "../../lib/local-chain";

export type VoucherChannel = { http: x402HTTPClient; client: x402Client; storage: InMemoryClientChannelStorage; channelId: string };

const salt = (): Hex => `0x${Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("hex")}`;

/** One channel per payer, opened by the official client's first call (its deposit) to `gatewayUrl`; `times` gets each call's ms. */
export async function openChannels(gatewayUrl: string, rpcUrl: string, payers: number[], times?: number[]): Promise<VoucherChannel[]> {
  const chain = createPublicClient({ chain: base, transport: http(rpcUrl) });
  const out: VoucherChannel[] = [];
  for (const payer of payers) {
    const storage = new InMemoryClientChannelStorage();
    const signer = toClientEvmSigner(privateKeyToAccount(anvilPrivateKey(payer)), chain as never);
    const client = new x402Client().register("eip155:8453", new BatchSettlementEvmScheme(signer, { storage, salt: salt() }));
    // Up to $5 a payment, so up to $25 a deposit: the 402's minDeposit ($20 at $0.02, a thousand calls) fits.
    client.setSpendControls({ maxAmountPerPayment: "$5" });
    const httpClient = new x402HTTPClient(client);
    const challenge = await fetch(gatewayUrl);
    const required = httpClient.getPaymentRequiredResponse((h) => challenge.headers.get(h), await challenge.json());
    const payload = await client.createPaymentPayload(required);
    const t = performance.now();
    const res = await fetch(gatewayUrl, { headers: httpClient.encodePaymentSignatureHeader(payload) });
    await res.arrayBuffer();
    times?.push(performance.now() - t);
    if (res.status !== 200) throw new Error(`opening a channel: HTTP ${res.status}`);
    await httpClient.processPaymentResult(payload, (h) => res.headers.get(h), res.status);
    out.push({ http: httpClient, client, storage, channelId: (payload.payload as { voucher: { channelId: string } }).voucher.channelId.toLowerCase() });
  }
  return out;
}

/**
 * `count` voucher proofs for one channel's next steps, each for a fresh 402, signed by the official client. The client's
 * record is moved one price at a time (as each answer would move it), and left where the last proof leaves it.
 */
export async function voucherProofs(gatewayUrl: string, ch: VoucherChannel, count: number): Promise<Record<string, string>[]> {
  const out: Record<string, string>[] = [];
  for (let i = 0; i < count; i++) {
    const challenge = await fetch(gatewayUrl);
    const required = ch.http.getPaymentRequiredResponse((h) => challenge.headers.get(h), await challenge.json());
    const payload = await ch.client.createPaymentPayload(required);
    out.push(ch.http.encodePaymentSignatureHeader(payload));
    const price = BigInt(required.accepts.find((a) => a.scheme === "batch-settlement")!.amount);
    const record = (await ch.storage.get(ch.channelId))!;
    await ch.storage.set(ch.channelId, { ...record, chargedCumulativeAmount: (BigInt(record.chargedCumulativeAmount ?? "0") + price).toString() });
  }
  return out;
}

/** Round-robin proofs over the channels (sequential rows): proof i belongs to channel i % n, each channel's in order. */
export async function interleavedProofs(gatewayUrl: string, channels: VoucherChannel[], n: number): Promise<Record<string, string>[]> {
  const per = await Promise.all(channels.map((ch, k) => voucherProofs(gatewayUrl, ch, Math.ceil((n - k) / channels.length))));
  return Array.from({ length: n }, (_, i) => per[i % channels.length]![Math.floor(i / channels.length)]!);
}

/** Each list sent in order by a caller of its own, all callers at once: latencies and requests per second. */
export async function channelLoad(lists: Record<string, string>[][], call: (headers: Record<string, string>) => Promise<number>) {
  const samples: number[] = [];
  const total = lists.reduce((n, l) => n + l.length, 0);
  const t0 = performance.now();
  await Promise.all(
    lists.map(async (list) => {
      for (const h of list) samples.push(await call(h));
    }),
  );
  return { samples, rps: Math.round((total / (performance.now() - t0)) * 1000) };
}
