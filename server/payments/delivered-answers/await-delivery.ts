// Copies of one proof that arrive while the first is being served wait for it instead of being turned away: the first
// holds the payment (its lock), delivers, keeps the answer and charges; the copies then find the payment charged and
// are served the kept answer (a replay). However many copies arrive, the upstream runs once.
//
// Across instances the only shared service is PostgreSQL, so a copy on another instance polls the payment's row (one
// poller per payment per instance, shared by every copy there, backing off to 250 ms) until it is no longer held under
// a live lease; a copy on the instance that holds it is woken the moment that instance is done. The wait is bounded
// (an upstream's deadline and a few seconds more, never past the lease): past it the copy is told payment_in_progress,
// as before.
import { env } from "../../env";
import { isPaymentInFlight } from "./delivered-answers.queries";

const state = ((globalThis as unknown as { __deliveries?: { local: Map<string, Promise<void>>; polls: Map<string, Promise<boolean>> } }).__deliveries ??= {
  local: new Map(),
  polls: new Map(),
});

/** This instance serves `paymentId` now; call the returned function when it is done (charged, released or failed). */
export function markDeliveryInFlight(paymentId: string): () => void {
  let done!: () => void;
  const p = new Promise<void>((r) => (done = r));
  state.local.set(paymentId, p);
  return () => {
    if (state.local.get(paymentId) === p) state.local.delete(paymentId);
    done();
  };
}

/** How long a copy waits for the first to finish. */
export function deliveryWaitMs(): number {
  const e = env();
  return Math.min(e.GATEWAY_UPSTREAM_TIMEOUT_MS + 5_000, e.PAYMENT_LEASE_SECONDS * 1000);
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** True once the payment is no longer held under a live lease; false at the deadline. One poller per payment here. */
function poll(paymentId: string, deadline: number): Promise<boolean> {
  let p = state.polls.get(paymentId);
  if (p) return p;
  p = (async () => {
    let delay = 10;
    try {
      for (;;) {
        if (!(await isPaymentInFlight(paymentId))) return true;
        if (Date.now() >= deadline) return false;
        await sleep(Math.min(delay, Math.max(1, deadline - Date.now())));
        delay = Math.min(250, delay * 2);
      }
    } finally {
      state.polls.delete(paymentId);
    }
  })();
  state.polls.set(paymentId, p);
  return p;
}

/**
 * Wait until the request serving `paymentId` is done, or `waitMs` passes. True when it is done (the caller asks its rail
 * again, which now answers a replay or the payment's final state), false when the wait ran out.
 */
export async function awaitDelivery(paymentId: string, waitMs = deliveryWaitMs()): Promise<boolean> {
  const deadline = Date.now() + waitMs;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((r) => (timer = setTimeout(() => r(false), waitMs)));
  try {
    // Served here: woken the moment it is done, then the row confirms (an answer delivered before inclusion stays held
    // until its charge lands, which the poll then waits for).
    const local = state.local.get(paymentId);
    if (local && !(await Promise.race([local.then(() => true as const), timeout]))) return false;
    return await Promise.race([poll(paymentId, deadline), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
