// viem clients for the settlement chain. Cached per (RPC_URL, key) so every request shares one HTTP pool.
import { createPublicClient, createWalletClient, http, publicActions, type Hex } from "viem";
import { nonceManager, privateKeyToAccount } from "viem/accounts";
import { chainWait } from "../lib/request-timing";
import { CHAIN } from "./config";

/** Every RPC round trip counts as time waiting on the chain (Server-Timing `chain`), not as the gateway's own. */
const timedFetch: typeof fetch = (input, init) => chainWait(() => fetch(input, init));

/**
 * Receipt polling: a local chain (anvil, automine) has the receipt as soon as the transaction is sent, so poll
 * fast; a real chain (Base: 2 s blocks) gains nothing from polling faster than a few times per block.
 */
function pollingInterval(rpcUrl: string): number {
  return /^https?:\/\/(127\.0\.0\.1|localhost|\[::1\])(:|\/|$)/.test(rpcUrl) ? 5 : 500;
}

const publicClients = new Map<string, ReturnType<typeof makePublic>>();
const walletClients = new Map<string, ReturnType<typeof makeWallet>>();

function makePublic(rpcUrl: string) {
  return createPublicClient({
    chain: CHAIN,
    transport: http(rpcUrl, { batch: false, retryCount: 1, fetchFn: timedFetch }),
    pollingInterval: pollingInterval(rpcUrl),
  });
}

function makeWallet(rpcUrl: string, privateKey: Hex) {
  return (
    createWalletClient({
      // The nonce manager hands out nonces in-process, so concurrent settlements from one gas wallet never collide.
      account: privateKeyToAccount(privateKey, { nonceManager }),
      chain: CHAIN,
      transport: http(rpcUrl, { retryCount: 1, fetchFn: timedFetch }),
      pollingInterval: pollingInterval(rpcUrl),
    })
      .extend(publicActions)
      // Waiting for a receipt is waiting on the chain, polls and the pauses between them alike.
      .extend((client) => ({
        waitForTransactionReceipt: (args: Parameters<typeof client.waitForTransactionReceipt>[0]) => chainWait(() => client.waitForTransactionReceipt(args)),
      }))
  );
}

export function publicClient(rpcUrl: string) {
  let c = publicClients.get(rpcUrl);
  if (!c) publicClients.set(rpcUrl, (c = makePublic(rpcUrl)));
  return c;
}

/** A wallet client that can also read (what @x402/evm's facilitator signer wraps). */
export function walletClient(rpcUrl: string, privateKey: Hex) {
  const key = `${rpcUrl}|${privateKey}`;
  let c = walletClients.get(key);
  if (!c) walletClients.set(key, (c = makeWallet(rpcUrl, privateKey)));
  return c;
}
