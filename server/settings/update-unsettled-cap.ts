// The caps on value delivered before its settlement is included on chain (./unsettled-cap.ts): per payer wallet, and
// across all wallets of the seller. Validated here (every caller gets the same message), saved with a settings.update
// audit row in the same transaction; null goes back to the default, 0 makes every call wait.
import { z } from "zod";
import { AppError } from "../errors";
import { microsToUsd, parseUsd } from "../lib/money";
import { parseWith } from "../validation";
import { saveUnsettledCap, type UnsettledCapScope } from "./settings.queries";
import { DEFAULT_SELLER_UNSETTLED_CAP_MICROS, DEFAULT_UNSETTLED_CAP_MICROS, MAX_SELLER_UNSETTLED_CAP_MICROS, MAX_UNSETTLED_CAP_MICROS } from "./unsettled-cap";

export const unsettledCapInput = z.object({
  // USD as a decimal string (e.g. "2.50"), 0 to the scope's maximum; null: the default.
  capUsd: z.string().trim().max(16).nullable(),
  // wallet: per payer wallet (the default); seller: across all wallets.
  scope: z.enum(["wallet", "seller"]).default("wallet"),
});

export type UnsettledCap = { usd: string | null; defaultUsd: string; maxUsd: string };

const BOUNDS: Record<UnsettledCapScope, { default: bigint; max: bigint }> = {
  wallet: { default: DEFAULT_UNSETTLED_CAP_MICROS, max: MAX_UNSETTLED_CAP_MICROS },
  seller: { default: DEFAULT_SELLER_UNSETTLED_CAP_MICROS, max: MAX_SELLER_UNSETTLED_CAP_MICROS },
};

export function describeUnsettledCap(micros: bigint | null, scope: UnsettledCapScope = "wallet"): UnsettledCap {
  return {
    usd: micros === null ? null : microsToUsd(micros),
    defaultUsd: microsToUsd(BOUNDS[scope].default),
    maxUsd: microsToUsd(BOUNDS[scope].max),
  };
}

export async function updateUnsettledCap(input: { sellerId: string; actorId: string | null; cap: unknown }): Promise<UnsettledCap> {
  const { capUsd, scope } = parseWith(unsettledCapInput, input.cap);
  const max = BOUNDS[scope].max;
  let micros: bigint | null = null;
  if (capUsd !== null && capUsd !== "") {
    micros = parseUsd(capUsd);
    if (micros === null || micros > max)
      throw new AppError("invalid_request", {
        reason: "invalid_parameter",
        detail: `the cap must be an amount in USD from 0 to ${microsToUsd(max)} (at most 6 decimal places), or empty for the default`,
        extra: { parameter: "capUsd" },
      });
  }
  return describeUnsettledCap(await saveUnsettledCap({ sellerId: input.sellerId, actorId: input.actorId, micros, scope }), scope);
}
