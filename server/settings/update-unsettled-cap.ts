// The per-wallet cap on value delivered before its settlement is included on chain (./unsettled-cap.ts): the seller's
// risk on wallet-paid calls answered before inclusion. Validated here (every caller gets the same message), saved with
// a settings.update audit row in the same transaction; null goes back to the default, 0 makes every call wait.
import { z } from "zod";
import { AppError } from "../errors";
import { microsToUsd, parseUsd } from "../lib/money";
import { parseWith } from "../validation";
import { saveUnsettledCap } from "./settings.queries";
import { DEFAULT_UNSETTLED_CAP_MICROS, MAX_UNSETTLED_CAP_MICROS } from "./unsettled-cap";

export const unsettledCapInput = z.object({
  // USD as a decimal string (e.g. "2.50"), 0 to 1000; null: the default.
  capUsd: z.string().trim().max(16).nullable(),
});

export type UnsettledCap = { usd: string | null; defaultUsd: string; maxUsd: string };

export function describeUnsettledCap(micros: bigint | null): UnsettledCap {
  return {
    usd: micros === null ? null : microsToUsd(micros),
    defaultUsd: microsToUsd(DEFAULT_UNSETTLED_CAP_MICROS),
    maxUsd: microsToUsd(MAX_UNSETTLED_CAP_MICROS),
  };
}

export async function updateUnsettledCap(input: { sellerId: string; actorId: string | null; cap: unknown }): Promise<UnsettledCap> {
  const { capUsd } = parseWith(unsettledCapInput, input.cap);
  let micros: bigint | null = null;
  if (capUsd !== null && capUsd !== "") {
    micros = parseUsd(capUsd);
    if (micros === null || micros > MAX_UNSETTLED_CAP_MICROS)
      throw new AppError("invalid_request", {
        reason: "invalid_parameter",
        detail: `the cap must be an amount in USD from 0 to ${microsToUsd(MAX_UNSETTLED_CAP_MICROS)} (at most 6 decimal places), or empty for the default`,
        extra: { parameter: "capUsd" },
      });
  }
  return describeUnsettledCap(await saveUnsettledCap({ sellerId: input.sellerId, actorId: input.actorId, micros }));
}
