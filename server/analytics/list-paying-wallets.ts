// The Customers page's payers: every wallet (or other payer a rail records) that paid in a range, with its spend net of
// refunds, paid calls, rails and first and last paid call, biggest spenders first. From the ledger's covering index.
import { AppError } from "../errors";
import { microsToUsd } from "../lib/money";
import { groupPayers } from "./analytics.queries";
import { findRolledThrough } from "./rollup.queries";
import { resolveRange, type RangeInput } from "../lib/date-range";
import { railPayerKinds } from "./get-overview";

export const PAYERS_PAGE_SIZE = 50;

export async function listPayingWallets(sellerId: string, input: RangeInput & { page?: number } = {}, now: Date = new Date()) {
  const range = resolveRange(input, now);
  const page = input.page ?? 1;
  if (!Number.isInteger(page) || page < 1 || page > 10_000)
    throw new AppError("invalid_request", { reason: "invalid_parameter", detail: "page must be a whole number from 1", extra: { parameter: "page" } });
  const through = await findRolledThrough(sellerId);
  const { rows, total } = await groupPayers(sellerId, range, through, { limit: PAYERS_PAGE_SIZE, offset: (page - 1) * PAYERS_PAGE_SIZE });
  const kinds = railPayerKinds();
  return {
    range: { preset: range.preset, from: range.from, to: range.to, days: range.days },
    page,
    pages: Math.max(1, Math.ceil(total / PAYERS_PAGE_SIZE)),
    total,
    payers: rows.map((r) => ({
      payer: r.payer,
      kind: kinds.find((k) => r.rails.includes(k.rail))?.kind ?? "wallet",
      rails: r.rails,
      calls: r.calls,
      refunds: r.refunds,
      netUsd: microsToUsd(r.chargedMicros - r.refundedMicros),
      firstAt: r.firstAt,
      lastAt: r.lastAt,
    })),
  };
}
