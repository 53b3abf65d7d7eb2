// What this instance last saw a credential's plan credit cover, per meter: a hint for the credits rail on whether to
// start the upstream call while the reservation is still on its way (serve-paid-call.ts, `deliverWhileAccepting`).
// It never decides a charge or an answer: the reserving statement does, and a call whose reservation fails is refused
// whatever the upstream said. What the rules below bound is upstream work for calls that then turn out unpaid:
//  - a call starts early only if the balance seen in the last few seconds covers it and one more, and no other
//    reservation of that credential and meter is in flight here;
//  - while it is in flight, the credential's other calls on this instance wait for it before they reserve, so it
//    reserves first and the balance seen is still there for it.
// So on one instance an early start is never wasted; only credit spent elsewhere meanwhile (another instance, another
// credential of the same person, a seller's edit) can leave one unpaid, at most one per credential and meter at a
// time. Per process, in memory; nothing to share between instances.
const FRESH_MS = 5_000;
const MAX_ENTRIES = 50_000;

const keyOf = (credentialId: string, meterKey: string) => `${credentialId} ${meterKey}`;
/** The lowest balance a reservation returned lately (draws only lower it; replies can arrive out of order). */
const seen = new Map<string, { remainingMicros: bigint; seenAt: number }>();
/** Reservations in flight here, early or not. */
const inFlight = new Map<string, number>();
/** The early call in flight, which the credential's other calls let reserve first. */
const early = new Map<string, { done: Promise<void>; resolve: () => void }>();

export function noteCoverage(credentialId: string, meterKey: string, remainingMicros: bigint): void {
  const key = keyOf(credentialId, meterKey);
  const now = Date.now();
  const s = seen.get(key);
  if (s && now - s.seenAt < FRESH_MS) {
    if (remainingMicros < s.remainingMicros) s.remainingMicros = remainingMicros;
    s.seenAt = now;
    return;
  }
  if (seen.size >= MAX_ENTRIES) seen.clear();
  seen.set(key, { remainingMicros, seenAt: now });
}

/** Nothing covered a call (or the credential is gone): no early start until a reservation lands again. */
export function forgetCoverage(credentialId: string, meterKey: string): void {
  seen.delete(keyOf(credentialId, meterKey));
}

/**
 * Whether to start this call's upstream before its reservation lands. When true, the call is the credential's early
 * call: it must reserve with `reservationTurn(..., { early: true })`, which the others wait for.
 */
export function mayStartEarly(credentialId: string, meterKey: string, priceMicros: bigint): boolean {
  const key = keyOf(credentialId, meterKey);
  const s = seen.get(key);
  if (!s || Date.now() - s.seenAt >= FRESH_MS || s.remainingMicros < 2n * priceMicros) return false;
  if (inFlight.has(key) || early.has(key)) return false;
  let resolve!: () => void;
  const done = new Promise<void>((r) => (resolve = r));
  early.set(key, { done, resolve });
  return true;
}

/**
 * Take this call's turn to reserve: after the credential's early call, if one is in flight (unless this is it). Call
 * the returned function once the reservation is decided, whatever it decided.
 */
export async function reservationTurn(credentialId: string, meterKey: string, opts: { early: boolean }): Promise<() => void> {
  const key = keyOf(credentialId, meterKey);
  if (!opts.early) for (let e = early.get(key); e; e = early.get(key)) await e.done;
  inFlight.set(key, (inFlight.get(key) ?? 0) + 1);
  return () => {
    const n = (inFlight.get(key) ?? 1) - 1;
    if (n > 0) inFlight.set(key, n);
    else inFlight.delete(key);
    if (opts.early) endEarly(credentialId, meterKey);
  };
}

/** The early call is decided (or ended before it reserved): the credential's other calls go ahead. Idempotent. */
export function endEarly(credentialId: string, meterKey: string): void {
  const key = keyOf(credentialId, meterKey);
  early.get(key)?.resolve();
  early.delete(key);
}

/** Tests: start from nothing seen. */
export function resetCoverageForTests(): void {
  seen.clear();
  inFlight.clear();
  for (const e of early.values()) e.resolve();
  early.clear();
}
