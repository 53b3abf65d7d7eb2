// Voucher-paid calls are captured off the response path: the served call's capture (payment consumed, its ledger
// `charge` row, its signed receipt) joins a queue that one statement writes for everyone waiting, a moment later. The
// voucher was spent before the answer (the channel's charged total already holds it, durably); if this process dies
// before the capture lands, the reconciler releases the hold after its lease, in the payer's favour, and the channel
// gives the price back: a claim only ever takes what was captured.
import "server-only";
import { captureVouchers } from "./batch.queries";

type Capture = { paymentId: string; units: number; upstreamStatus: number; receipt: string | null };
type Queue = { pending: Capture[]; flushing: Promise<void> | null; timer: NodeJS.Timeout | null; failures: number };
// One queue per process, whichever bundle loaded this module.
const q: Queue = ((globalThis as unknown as { __voucherCaptureQueue?: Queue }).__voucherCaptureQueue ??= {
  pending: [],
  flushing: null,
  timer: null,
  failures: 0,
});

const MAX_BATCH = 500;

async function flushOnce(): Promise<void> {
  const batch = q.pending.splice(0, MAX_BATCH);
  if (!batch.length) return;
  try {
    await captureVouchers(batch);
    q.failures = 0;
  } catch (e) {
    // The database did not take it: keep the captures and try again soon; their leases outlast a short outage.
    q.pending.unshift(...batch);
    q.failures++;
    console.error(`[x402-batch] capture of ${batch.length} voucher call(s) failed, retrying:`, e instanceof Error ? e.message : e);
  }
}

function schedule(delayMs: number): void {
  if (q.timer || q.flushing) return;
  q.timer = setTimeout(() => {
    q.timer = null;
    q.flushing = flushOnce().finally(() => {
      q.flushing = null;
      if (q.pending.length) schedule(q.failures ? Math.min(5_000, 100 * 2 ** q.failures) : 0);
    });
  }, delayMs);
  q.timer.unref?.();
}

export function enqueueCapture(c: Capture): void {
  q.pending.push(c);
  schedule(0);
}

/** Write every queued capture now (tests, the claim pass before it reads, a graceful shutdown). */
export async function flushVoucherCaptures(): Promise<void> {
  if (q.timer) {
    clearTimeout(q.timer);
    q.timer = null;
  }
  while (q.flushing || q.pending.length) {
    if (q.flushing) await q.flushing;
    else {
      q.flushing = flushOnce().finally(() => (q.flushing = null));
      await q.flushing;
      if (q.failures) break;
    }
  }
}
