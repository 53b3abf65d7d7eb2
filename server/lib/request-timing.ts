// Where one request's time goes, for Server-Timing: the time spent waiting on the chain (RPC round trips, and
// waiting for a receipt) is collected here per request through AsyncLocalStorage, so the gateway can report its
// own work as the rest. Nothing here is on by default: outside `timeRequest` the hooks cost one lookup.
import { AsyncLocalStorage } from "node:async_hooks";

type Span = { chainMs: number; depth: number; dbMs: number; dbDepth: number };

const store = new AsyncLocalStorage<Span>();

/** Run `fn` with chain time collected; returns its result and the chain time it spent. */
export async function timeRequest<T>(fn: () => Promise<T>): Promise<{ result: T; chainMs: () => number }> {
  const span: Span = { chainMs: 0, depth: 0, dbMs: 0, dbDepth: 0 };
  const result = await store.run(span, fn);
  return { result, chainMs: () => span.chainMs };
}

/** The chain time collected so far in this request (0 outside `timeRequest`). */
export function chainMsSoFar(): number {
  return store.getStore()?.chainMs ?? 0;
}

/** The time spent waiting on PostgreSQL so far in this request (0 outside `timeRequest`): part of the gateway's own time. */
export function dbMsSoFar(): number {
  return store.getStore()?.dbMs ?? 0;
}

/** Count `fn`'s wall time as waiting on PostgreSQL (statements run at once overlap and count once). */
export async function dbWait<T>(fn: () => Promise<T>): Promise<T> {
  const span = store.getStore();
  if (!span) return fn();
  const t0 = performance.now();
  span.dbDepth++;
  try {
    return await fn();
  } finally {
    span.dbDepth--;
    if (span.dbDepth === 0) span.dbMs += performance.now() - t0;
  }
}

/**
 * Count `fn`'s wall time as waiting on the chain. Nested spans count once (a receipt wait wraps its own polls).
 * Only for work that is I/O to the chain: local CPU (signatures, encoding) must stay outside.
 */
export async function chainWait<T>(fn: () => Promise<T>): Promise<T> {
  const span = store.getStore();
  if (!span) return fn();
  const t0 = performance.now();
  span.depth++;
  try {
    return await fn();
  } finally {
    span.depth--;
    if (span.depth === 0) span.chainMs += performance.now() - t0;
  }
}
