// Plan-covered calls are charged off the response path: the served call's capture (payment consumed + its ledger
// `draw` row) joins a queue that one statement writes for everyone waiting, a moment later (server/lib/batch-queue.ts).
// The reservation made before the call already guarantees the credit; if this process dies before the capture lands,
// the reconciler releases the reservation after its lease: the caller keeps the credit, the seller is never paid twice.
import { batchQueue } from "../../../lib/batch-queue";
import { captureDraws } from "./credits.queries";

type Capture = { paymentId: string; units: number; upstreamStatus: number; receipt: string | null };

const queue = batchQueue<Capture>("__captureQueue", captureDraws, (n) => `[billing] capture of ${n} draw(s) failed, retrying:`);

export const enqueueCapture = queue.enqueue;

/** Write every queued capture now (tests, and a graceful shutdown). */
export const flushCaptures = queue.flush;
