// The chain's side of a bench case: the transactions a wallet sent in a window of blocks and the gas they used, read
// from the blocks' receipts (eth_getBlockReceipts), so every rail's row says what it costs on chain per paid call.
import type { Hex } from "viem";

async function rpc<T>(rpcUrl: string, method: string, params: unknown[]): Promise<T> {
  const res = await fetch(rpcUrl, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
  const body = (await res.json()) as { result?: T; error?: { message: string } };
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result as T;
}

export async function blockNumber(rpcUrl: string): Promise<number> {
  return Number(await rpc<Hex>(rpcUrl, "eth_blockNumber", []));
}

/** Transactions `from` sent in blocks (fromBlock, toBlock] and the gas they used. */
export async function walletTransactions(rpcUrl: string, from: string, fromBlock: number, toBlock: number): Promise<{ txs: number; gas: bigint }> {
  let txs = 0;
  let gas = 0n;
  for (let b = fromBlock + 1; b <= toBlock; b++) {
    const receipts = await rpc<{ from: string; gasUsed: Hex }[]>(rpcUrl, "eth_getBlockReceipts", [`0x${b.toString(16)}`]);
    for (const r of receipts ?? [])
      if (r.from.toLowerCase() === from.toLowerCase()) {
        txs++;
        gas += BigInt(r.gasUsed);
      }
  }
  return { txs, gas };
}

/** A load of `calls` paid calls and what the wallet sent for it on chain, per call (after `settleMs` for stragglers). */
export async function withChainStats<T>(rpcUrl: string, wallet: string, calls: number, load: () => Promise<T>, settleMs = 0) {
  const before = await blockNumber(rpcUrl);
  const result = await load();
  if (settleMs) await new Promise((r) => setTimeout(r, settleMs));
  const { txs, gas } = await walletTransactions(rpcUrl, wallet, before, await blockNumber(rpcUrl));
  return { result, chain: { chain_txs_per_call: (txs / calls).toFixed(3), gas_per_call: (Number(gas) / calls).toFixed(0) } };
}
