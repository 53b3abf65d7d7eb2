// A seller changes a meter's per-request price from the console: the price, an audit row and a catalog version
// bump in one transaction (catalog.queries.ts), so every instance charges the new price on the next request.
// The seller id comes from the session (sellerProcedure): another seller's meter id matches nothing.
import { AppError } from "../errors";
import { microsToUsd, parseUsd } from "../lib/money";
import { updateMeterPrice } from "./catalog.queries";
import { invalidateSeller } from "./resolve-seller";

const MAX_PRICE_MICROS = 1_000_000_000n; // $1,000 per request

export async function changeMeterPrice(input: { sellerId: string; actorId: string; meterId: string; amountUsd: string }) {
  const micros = parseUsd(input.amountUsd);
  if (micros === null)
    throw new AppError("invalid_request", {
      detail: "amountUsd must be a decimal such as 0.02 with at most 6 decimal places",
      extra: { parameter: "amountUsd" },
    });
  if (micros > MAX_PRICE_MICROS)
    throw new AppError("invalid_request", { detail: `amountUsd must be at most ${microsToUsd(MAX_PRICE_MICROS)}`, extra: { parameter: "amountUsd" } });
  const res = await updateMeterPrice({ sellerId: input.sellerId, meterId: input.meterId, amountMicros: micros, actorId: input.actorId });
  // Another seller's meter id matches no row: indistinguishable from a missing one.
  if (!res) throw new AppError("not_found", { detail: "no such meter" });
  // Other instances hear of it from PostgreSQL (catalog_changed); this one need not wait for the notification.
  invalidateSeller(input.sellerId);
  return { meter: res.meterKey, beforeUsd: microsToUsd(res.beforeMicros), afterUsd: microsToUsd(res.afterMicros) };
}
