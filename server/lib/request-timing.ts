// Where one request's time goes, for Server-Timing: the time spent waiting on the chain (RPC round trips, and
// waiting for a receipt) and on PostgreSQL is collected here per request through AsyncLocalStorage, so the gateway
// can report its own work as the rest. Nothing here is on by default: outside `timeRequest` the hooks cost one lookup.
import { AsyncLocalStorage } from "node:async_hooks";

type Kind = "chain" | "db";
type Wait = { ms: number; depth: number };
type Span = Record<Kind, Wait>;

const store = new AsyncLocalStorage<Span>();

/** Run `fn` with chain and database time collected; returns its result and the chain time it spent. */
export async function timeRequest<T>(fn: () => Promise<T>): Promise<{ result: T; chainMs: () => number }> {
  const span: Span = { chain: { ms: 0, depth: 0 }, db: { ms: 0, depth: 0 } };
  const result = await store.run(span, fn);
  return { result, chainMs: () => span.chain.ms };
}

/** Count `fn`'s wall time as waiting on `kind`. Nested spans count once (a receipt wait wraps its own polls). */
async function waitOn<T>(kind: Kind, fn: () => Promise<T>): Promise<T> {
  const span = store.getStore();
  if (!span) return fn();
  const wait = span[kind];
  const t0 = performance.now();
  wait.depth++;
  try {
    return await fn();
  } finally {
    wait.depth--;
    if (wait.depth === 0) wait.ms += performance.now() - t0;
  }
}

/** The chain time collected so far in this request (0 outside `timeRequest`). */
export function chainMsSoFar(): number {
  return store.getStore()?.chain.ms ?? 0;
}

/** The time spent waiting on PostgreSQL so far in this request (0 outside `timeRequest`): part of the gateway's own time. */
export function dbMsSoFar(): number {
  return store.getStore()?.db.ms ?? 0;
}

/** Count `fn`'s wall time as waiting on the chain. Only I/O to the chain: local CPU (signatures, encoding) stays outside. */
export function chainWait<T>(fn: () => Promise<T>): Promise<T> {
  return waitOn("chain", fn);
}

/** Count `fn`'s wall time as waiting on PostgreSQL. */
export function dbWait<T>(fn: () => Promise<T>): Promise<T> {
  return waitOn("db", fn);
}
