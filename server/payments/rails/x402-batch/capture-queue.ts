// Voucher-paid calls are captured off the response path: the served call's capture (payment consumed, its ledger
// `charge` row, its signed receipt) joins a queue that one statement writes for everyone waiting, a moment later
// (server/lib/batch-queue.ts). The voucher was spent before the answer (the channel's charged total already holds it,
// durably); if this process dies before the capture lands, the reconciler releases the hold after its lease, in the
// payer's favour, and the channel gives the price back: a claim only ever takes what was captured.
import "server-only";
import { batchQueue } from "../../../lib/batch-queue";
import { captureVouchers } from "./batch.queries";

type Capture = { paymentId: string; units: number; upstreamStatus: number; receipt: string | null };

const queue = batchQueue<Capture>("__voucherCaptureQueue", captureVouchers, (n) => `[x402-batch] capture of ${n} voucher call(s) failed, retrying:`);

export const enqueueCapture = queue.enqueue;

/** Write every queued capture now (tests, the claim pass before it reads, a graceful shutdown). */
export const flushVoucherCaptures = queue.flush;
