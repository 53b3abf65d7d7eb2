// The seller's bounds on leased plan credit (server/payments/rails/credits/README.md "Leased credit"): an instance may
// lease part of a credential's credit, at most this many calls' worth and this long, whichever ends first, and spend
// it without a PostgreSQL statement per call. Empty goes back to the deployment's default (CREDIT_LEASE_CALLS,
// CREDIT_LEASE_MS); 0 calls turns leasing off. Validated here (every caller gets the same message), saved with a
// settings.update audit row in one transaction. Running instances hear it at once: the row's trigger announces the
// seller on catalog_changed, each instance's lease book closes the seller's leases, and every lease statement reads
// the bounds from the row, so the next lease is taken on the new ones.
import { z } from "zod";
import { env } from "../env";
import { AppError } from "../errors";
import { parseWith } from "../validation";
import { saveCreditLease, type CreditLeaseRow } from "./settings.queries";

/**
 * The bounds a seller may set, the deployment's own (server/env.ts): a lease of more than 1,000 calls or longer than a
 * minute would let a lost notice (a freeze, a revocation) go unheard for that long; under a second, the lease ends
 * before its calls' batch is written (about a second) and saves nothing.
 */
export const CREDIT_LEASE_MAX_CALLS = 1_000;
export const CREDIT_LEASE_MIN_MS = 1_000;
export const CREDIT_LEASE_MAX_MS = 60_000;

export const creditLeaseInput = z.object({
  // Whole calls' worth, 0 (no leases) to CREDIT_LEASE_MAX_CALLS; empty or null: the default.
  calls: z.string().trim().max(16).nullable(),
  // Seconds, at most 3 decimal places, CREDIT_LEASE_MIN_MS to CREDIT_LEASE_MAX_MS; empty or null: the default.
  seconds: z.string().trim().max(16).nullable(),
});

export type CreditLease = {
  /** The seller's (null: the default). */
  calls: number | null;
  ms: number | null;
  defaultCalls: number;
  defaultMs: number;
  maxCalls: number;
  minMs: number;
  maxMs: number;
  /** Whether instances lease this seller's plan credit now (both bounds, as in force, above 0). */
  on: boolean;
};

export function describeCreditLease(row: CreditLeaseRow): CreditLease {
  const [defaultCalls, defaultMs] = [env().CREDIT_LEASE_CALLS, env().CREDIT_LEASE_MS];
  const on = (row.calls ?? defaultCalls) > 0 && (row.ms ?? defaultMs) > 0;
  return { ...row, defaultCalls, defaultMs, maxCalls: CREDIT_LEASE_MAX_CALLS, minMs: CREDIT_LEASE_MIN_MS, maxMs: CREDIT_LEASE_MAX_MS, on };
}

function refuse(parameter: string, detail: string): AppError {
  return new AppError("invalid_request", { reason: "invalid_parameter", detail, extra: { parameter } });
}

function parseCalls(v: string | null): number | null {
  if (v === null || v === "") return null;
  if (!/^\d{1,7}$/.test(v) || Number(v) > CREDIT_LEASE_MAX_CALLS)
    throw refuse(
      "calls",
      `calls per lease must be a whole number from 0 (no leases) to ${CREDIT_LEASE_MAX_CALLS.toLocaleString("en-US")}, or empty for the default`,
    );
  return Number(v);
}

function parseSeconds(v: string | null): number | null {
  if (v === null || v === "") return null;
  const m = /^(\d{1,7})(?:\.(\d{1,3}))?$/.exec(v);
  const ms = m ? Number(m[1]) * 1000 + Number((m[2] ?? "").padEnd(3, "0")) : NaN;
  if (!(ms >= CREDIT_LEASE_MIN_MS && ms <= CREDIT_LEASE_MAX_MS))
    throw refuse(
      "seconds",
      `seconds per lease must be from ${CREDIT_LEASE_MIN_MS / 1000} to ${CREDIT_LEASE_MAX_MS / 1000} (at most 3 decimal places), or empty for the default`,
    );
  return ms;
}

export async function updateCreditLease(input: { sellerId: string; actorId: string | null; lease: unknown }): Promise<CreditLease> {
  const typed = parseWith(creditLeaseInput, input.lease);
  const row = { calls: parseCalls(typed.calls), ms: parseSeconds(typed.seconds) };
  return describeCreditLease(await saveCreditLease({ sellerId: input.sellerId, actorId: input.actorId, lease: row }));
}
