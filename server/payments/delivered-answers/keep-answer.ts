// Keeps the first successful answer of a payment, so that a replay of its proof is served these very bytes (the ones
// its receipt hashed) instead of running the upstream again: a paid request buys one answer, however often its proof
// is retried. Written before the charge is decided (settle-payment's outbox row, a capture, a prepaid delivery), so a
// payment that is charged has its answer kept, or a marker saying why not. Bounded: DELIVERED_ANSWER_MAX_BYTES per
// answer, DELIVERED_ANSWERS_MAX_BYTES_PER_SELLER per seller (one guarded statement), purged with the replay window.
import { env } from "../../env";
import { keepDeliveredAnswer, type NotKeptReason } from "./delivered-answers.queries";

/** What went out: the status, the upstream's headers as passed through, the body exactly as sent (null: none). */
export type AnswerSent = { status: number; headers: Headers; body: ArrayBuffer | Uint8Array | null };

/**
 * Headers that describe the request or the moment rather than the answer: not kept (a replay gets its own). The rest
 * (content-type, content-disposition, etag, last-modified, the upstream's own fields) is what the answer was.
 */
const PER_RESPONSE = new Set(["date", "server-timing", "x-request-id", "age", "set-cookie", "cache-control"]);

export function keptHeaders(headers: Headers): [string, string][] {
  const out: [string, string][] = [];
  headers.forEach((value, name) => {
    if (!PER_RESPONSE.has(name)) out.push([name, value]);
  });
  return out;
}

/** The bytes an answer counts against the allowance: its body and its headers as kept. */
export function answerSize(headers: [string, string][], body: ArrayBuffer | Uint8Array | null): number {
  let n = body ? body.byteLength : 0;
  for (const [k, v] of headers) n += k.length + v.length + 4;
  return n;
}

/**
 * Keep this payment's answer; never throws (a failure to keep costs the caller nothing now, and its replay is refused
 * as not kept). Returns what happened, for tests and the log.
 */
export async function keepAnswer(p: { paymentId: string; sellerId: string }, answer: AnswerSent): Promise<"kept" | NotKeptReason | "off" | "exists" | "error"> {
  const e = env();
  if (e.PAYMENT_REPLAY_HOURS <= 0) return "off";
  const headers = keptHeaders(answer.headers);
  const body = answer.body ? new Uint8Array(answer.body as ArrayBuffer) : null;
  const sizeBytes = answerSize(headers, body);
  try {
    return await keepDeliveredAnswer(
      {
        paymentId: p.paymentId,
        sellerId: p.sellerId,
        status: answer.status,
        headers,
        body,
        sizeBytes,
        expiresAt: new Date(Date.now() + e.PAYMENT_REPLAY_HOURS * 3_600_000),
      },
      e.DELIVERED_ANSWERS_MAX_BYTES_PER_SELLER,
      sizeBytes > e.DELIVERED_ANSWER_MAX_BYTES,
    );
  } catch (err) {
    console.error(`[delivered-answers] could not keep ${p.paymentId}'s answer:`, err instanceof Error ? err.message : err);
    return "error";
  }
}
