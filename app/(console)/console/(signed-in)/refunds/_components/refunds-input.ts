// The Refunds page's filter from its URL (status, rail, from, to), the same for the server's prefetch, the browser's
// query and the CSV link. A reversed range is told apart before anything is asked of the server.
import { REFUND_STATUS_WORDS, type RefundStatus } from "@/server/contracts/payment-words";

export { REFUND_STATUS_WORDS };
export type RefundStatusWord = RefundStatus;

const DAY = /^\d{4}-\d{2}-\d{2}$/;

export function refundsInput(params: URLSearchParams) {
  const status = params.get("status");
  const day = (k: string) => {
    const v = params.get(k);
    return v && DAY.test(v) ? v : undefined;
  };
  return {
    status: status && status in REFUND_STATUS_WORDS ? (status as RefundStatusWord) : undefined,
    rail: params.get("rail") || undefined,
    from: day("from"),
    to: day("to"),
  };
}

/** Why the range cannot be read, in a seller's words, or null. */
export function rangeProblem(input: { from?: string; to?: string }): string | null {
  return input.from && input.to && input.from > input.to ? "The range ends before it starts: pick a “to” day on or after the “from” day." : null;
}

export function refundsExportHref(input: ReturnType<typeof refundsInput>): string {
  const q = new URLSearchParams(Object.entries(input).filter((e): e is [string, string] => Boolean(e[1])));
  const s = q.toString();
  return `/console/refunds/export${s ? `?${s}` : ""}`;
}
