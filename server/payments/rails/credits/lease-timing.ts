// When a pool of leased credit (./lease-book.ts) asks for a lease, and how long it goes per call when it gets none:
// the lease book's timing, in one place (README "Leased credit").
/** How long a pool that got no lease goes per call before asking again (a notice clears it sooner). */
export const NO_LEASE_MS = 2_000;
/** Statements a lease is asked with at once when each loses to a concurrent one, before the pool backs off briefly. */
export const CONTENDED_TRIES = 3;
// After CONTENDED_TRIES lost statements the pool goes per call for milliseconds, not NO_LEASE_MS: losing says another
// writer took the credit this statement saw, not that there is none. Two seconds per call would put the pool's every
// call back on the grant rows (the load leases remove) long after the race ended. The wait doubles per consecutive
// round (a race that goes on is load, not a collision), is jittered (losers do not ask again in lockstep), and capped.
export const CONTENDED_BACKOFF_MS = 10;
export const CONTENDED_BACKOFF_CAP_MS = 250;
/** Spent calls wait at most this long for a statement to ride with. */
export const RECORD_DELAY_MS = 1_000;
// A pool's next lease is asked for once its live one is down to a quarter, so its calls go on spending the rest while
// the statement travels, instead of all waiting for it when the lease runs out. The statement still carries the calls
// spent so far (one write transaction per lease, as before); what a pool holds is at most one lease and a quarter.
export const RENEW_AHEAD = 4n;

/** The wait after a round of lost statements: doubling per consecutive round, capped, jittered over its upper half. */
export function contendedBackOffMs(round: number): number {
  const ms = Math.min(CONTENDED_BACKOFF_CAP_MS, CONTENDED_BACKOFF_MS * 2 ** Math.min(round - 1, 10));
  return ms / 2 + Math.random() * (ms / 2);
}
