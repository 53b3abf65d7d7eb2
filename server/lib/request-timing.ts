// Where one request's time goes, for Server-Timing: the time spent waiting on the chain (RPC round trips, and
// waiting for a receipt) and on PostgreSQL is collected here per request through AsyncLocalStorage, so the gateway
// can report its own work as the rest. Nothing here is on by default: outside `timeRequest` the hooks cost one lookup.
import { AsyncLocalStorage } from "node:async_hooks";

type Kind = "chain" | "db";
/**
 * Waits in flight per kind, and the wall time each kind kept the request waiting. Waits of both kinds can overlap (a
 * lock statement travels while the chain simulates): such time counts once, as chain time, so `db` is only what the
 * database alone held the request up, and `total - chain - upstream` (the gateway's own time) never counts a wait twice.
 */
type Span = { inFlight: Record<Kind, number>; ms: Record<Kind, number>; since: number };

const store = new AsyncLocalStorage<Span>();

/** Run `fn` with chain and database time collected; returns its result and the chain time it spent. */
export async function timeRequest<T>(fn: () => Promise<T>): Promise<{ result: T; chainMs: () => number }> {
  const span: Span = { inFlight: { chain: 0, db: 0 }, ms: { chain: 0, db: 0 }, since: 0 };
  const result = await store.run(span, fn);
  return { result, chainMs: () => span.ms.chain };
}

/** Book the time since the last change of what is in flight: chain if any chain wait is, else db if a statement is. */
function book(span: Span): void {
  const now = performance.now();
  if (span.inFlight.chain > 0) span.ms.chain += now - span.since;
  else if (span.inFlight.db > 0) span.ms.db += now - span.since;
  span.since = now;
}

/** Count `fn`'s wall time as waiting on `kind`. Nested and overlapping waits count once (see Span). */
async function waitOn<T>(kind: Kind, fn: () => Promise<T>): Promise<T> {
  const span = store.getStore();
  if (!span) return fn();
  book(span);
  span.inFlight[kind]++;
  try {
    return await fn();
  } finally {
    book(span);
    span.inFlight[kind]--;
  }
}

/** The chain time collected so far in this request (0 outside `timeRequest`). */
export function chainMsSoFar(): number {
  return store.getStore()?.ms.chain ?? 0;
}

/** The time spent waiting on PostgreSQL so far in this request (0 outside `timeRequest`): part of the gateway's own time. */
export function dbMsSoFar(): number {
  return store.getStore()?.ms.db ?? 0;
}

/** Count `fn`'s wall time as waiting on the chain. Only I/O to the chain: local CPU (signatures, encoding) stays outside. */
export function chainWait<T>(fn: () => Promise<T>): Promise<T> {
  return waitOn("chain", fn);
}

/** Count `fn`'s wall time as waiting on PostgreSQL. */
export function dbWait<T>(fn: () => Promise<T>): Promise<T> {
  return waitOn("db", fn);
}
