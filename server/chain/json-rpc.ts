// One JSON-RPC request to the chain, without viem's client machinery: the paid path's transfer simulation is one
// `eth_call` per wallet-paid request, and viem's `call` action spent about 0.7 ms of CPU around each round trip
// (request formatting, validation, retry and error wrapping; measured against anvil, 2.1 vs 1.4 ms a call). The round
// trip itself counts as chain time (Server-Timing `chain`), like every RPC call of the app. Sent with the app's plain
// HTTP client (../lib/http-client.ts: keep-alive sockets, not fetch).
import { decodeAbiParameters, type Hex } from "viem";
import { httpRequest } from "../lib/http-client";
import { chainWait } from "../lib/request-timing";

const TIMEOUT_MS = 10_000;
const ERROR_STRING = "0x08c379a0"; // Error(string)

/** The node answered with a JSON-RPC error (a revert is code 3 with the reason in `message` and/or `data`). */
export class RpcError extends Error {
  constructor(
    message: string,
    readonly code: number,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

let nextId = 0;

async function post(rpcUrl: string, body: string): Promise<unknown> {
  // The answer's body is part of the round trip: read inside the chain wait.
  const { status, body: answer } = await chainWait(() =>
    httpRequest(rpcUrl, { method: "POST", headers: { "content-type": "application/json" }, body, timeoutMs: TIMEOUT_MS }),
  );
  const text = answer.toString("utf8");
  if (status < 200 || status >= 300) throw new Error(`RPC HTTP ${status}: ${text.slice(0, 200)}`);
  return JSON.parse(text);
}

/**
 * `method(params)` on the node. Network failures and HTTP errors are retried once and then thrown as plain errors;
 * a JSON-RPC error is an `RpcError` (never retried: it is the node's answer).
 */
export async function rpcRequest<T>(rpcUrl: string, method: string, params: unknown[]): Promise<T> {
  const body = JSON.stringify({ jsonrpc: "2.0", id: ++nextId, method, params });
  let answer: unknown;
  try {
    answer = await post(rpcUrl, body);
  } catch {
    answer = await post(rpcUrl, body);
  }
  const a = answer as { result?: T; error?: { code?: number; message?: string; data?: unknown } };
  if (a.error) throw new RpcError(revertMessage(a.error), a.error.code ?? 0, a.error.data);
  return a.result as T;
}

/** "execution reverted: <reason>", also from nodes that put the reason only in `data` as Error(string). */
function revertMessage(error: { message?: string; data?: unknown }): string {
  const message = error.message ?? "RPC error";
  const data = typeof error.data === "string" ? error.data : undefined;
  if (/revert/i.test(message) && !/revert(ed)?:\s*\S/i.test(message) && data?.startsWith(ERROR_STRING)) {
    try {
      const [reason] = decodeAbiParameters([{ type: "string" }], `0x${data.slice(ERROR_STRING.length)}` as Hex);
      return `execution reverted: ${reason}`;
    } catch {
      return message;
    }
  }
  return message;
}

/** `eth_call` at the latest block; the return data, or an RpcError when it reverts. */
export function ethCall(rpcUrl: string, tx: { from: Hex; to: Hex; data: Hex }): Promise<Hex> {
  return rpcRequest<Hex>(rpcUrl, "eth_call", [tx, "latest"]);
}
