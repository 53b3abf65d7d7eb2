// Plan-covered calls reserve in batches under load: a call that arrives while its seller's reservation statement is in
// flight joins the next one, so concurrent covered calls cost one statement, one set of row locks and one commit per
// batch instead of one per call (the grants' row locks, which every draw on the same credit waits for, are held once
// for the batch). A call arriving when nothing is in flight goes at once, alone (with `reserveDraw`, the statement of
// a single draw): no added latency when idle.
// Each call still gets its own outcome, decided by the same rules as a draw of its own (./reserve-batch.queries.ts).
// Calls with an Idempotency-Key (their lock key may collide, which must fail only that call) and calls that may take a
// free included unit (a per-human counter) reserve alone, as before, with `reserveDraw`.
import { reserveDraw, type DrawRequest, type DrawResult } from "./credits.queries";
import { reserveDraws, type BatchDrawRequest } from "./reserve-batch.queries";

type Waiting = { request: BatchDrawRequest; resolve: (r: DrawResult) => void; reject: (e: unknown) => void };
type Queue = { pending: Waiting[]; flushing: boolean };

const MAX_BATCH = 200;
// Per seller: a batch waiting on one seller's locks never holds up another's calls. One map per process, whichever
// bundle loaded this module.
const queues: Map<string, Queue> = ((globalThis as unknown as { __reserveQueues?: Map<string, Queue> }).__reserveQueues ??= new Map());

/** Statements sent and calls they carried (tests, and the bench's account of batching). */
export const reserveBatchStats = { statements: 0, calls: 0 };

export function reserveDrawBatched(r: DrawRequest): Promise<DrawResult> {
  if (r.lockKey || (r.humanId !== null && r.includedUnits > 0)) return reserveDraw(r);
  // What the batch statement takes: everything but the lock key and the free units, which only a draw alone handles.
  const { lockKey: _lockKey, includedUnits: _includedUnits, ...request } = r;
  let q = queues.get(r.sellerId);
  if (!q) queues.set(r.sellerId, (q = { pending: [], flushing: false }));
  const queue = q;
  return new Promise((resolve, reject) => {
    queue.pending.push({ request, resolve, reject: reject as (e: unknown) => void });
    if (!queue.flushing) void flush(r.sellerId, queue);
  });
}

async function flush(sellerId: string, q: Queue): Promise<void> {
  q.flushing = true;
  try {
    while (q.pending.length) {
      const batch = q.pending.splice(0, MAX_BATCH);
      reserveBatchStats.statements++;
      reserveBatchStats.calls += batch.length;
      // Alone, a call takes the single draw's statement, as it did before batching: the batch's is for two or more.
      if (batch.length === 1) {
        const w = batch[0]!;
        await reserveDraw({ ...w.request, includedUnits: 0 }).then(w.resolve, w.reject);
        continue;
      }
      let results;
      try {
        results = await reserveDraws(batch.map((w) => w.request));
      } catch (e) {
        // The statement failed as a whole (nothing was written): each call fails as its own statement would have.
        for (const w of batch) w.reject(e);
        continue;
      }
      batch.forEach((w, i) => {
        const r = results[i]!;
        if (r.type === "alone") reserveDraw({ ...w.request, includedUnits: 0 }).then(w.resolve, w.reject);
        else w.resolve(r);
      });
    }
  } finally {
    q.flushing = false;
    if (!q.pending.length) queues.delete(sellerId);
  }
}
