// A seller changes a meter's per-request price from the console: the price, an audit row and a catalog version
// bump in one transaction (catalog.queries.ts), so every instance charges the new price on the next request.
// The seller id comes from the session (sellerProcedure): another seller's meter id matches nothing.
import { getPriceHistory } from "../analytics/get-price-history";
import { consolePrice, firstIssue } from "../contracts/console";
import { AppError } from "../errors";
import { CARD_MINIMUM_MICROS, microsToUsd, parseUsd } from "../lib/money";
import { discoveryOffers, railsOffering as railsPricing } from "../payments/rails";
import { getCatalog } from "../catalog/catalog";
import { findSellerById, updateMeterPrice } from "../catalog/catalog.queries";
import { invalidateSeller } from "../catalog/resolve-seller";

/** A price as the console types it, checked by the rule the console's form checks it with (server/contracts/console.ts). */
function parsePrice(amountUsd: string): bigint {
  const checked = consolePrice.safeParse(amountUsd);
  const micros = checked.success ? parseUsd(checked.data) : null;
  if (micros === null) throw new AppError("invalid_request", { detail: firstIssue(checked) ?? "not a price", extra: { parameter: "amountUsd" } });
  return micros;
}

export async function changeMeterPrice(input: { sellerId: string; actorId: string; meterId: string; amountUsd: string }) {
  const micros = parsePrice(input.amountUsd);
  const res = await updateMeterPrice({ sellerId: input.sellerId, meterId: input.meterId, amountMicros: micros, actorId: input.actorId });
  // Another seller's meter id matches no row: indistinguishable from a missing one.
  if (!res) throw new AppError("not_found", { detail: "no such meter" });
  // Other instances hear of it from PostgreSQL (catalog_changed); this one need not wait for the notification.
  invalidateSeller(input.sellerId);
  return { meter: res.meterKey, beforeUsd: microsToUsd(res.beforeMicros), afterUsd: microsToUsd(res.afterMicros) };
}

/** The rails that can take a price (the registry's discovery offers: card only from $0.50), each with its offers' methods. */
export function railsOffering(amountMicros: bigint): { rail: string; methods: string[] }[] {
  if (amountMicros === 0n) return [];
  return railsPricing(amountMicros)
    .map(({ rail }) => ({ rail: rail.name as string, methods: discoveryOffers(rail, amountMicros).map((o) => o.method) }))
    .filter((r) => r.methods.length > 0);
}

/**
 * What a price change would do, before it is made: the old and new price, the meter's last 30 days at each price it
 * was paid (calls and revenue; the same charged calls at the new price, as an estimate that assumes none are lost),
 * and the rails the new price gains or loses. Reads only.
 */
export async function previewMeterPrice(input: { sellerId: string; meterId: string; amountUsd: string }) {
  const after = parsePrice(input.amountUsd);
  const seller = await findSellerById(input.sellerId);
  if (!seller) throw new AppError("seller_not_found");
  const catalog = await getCatalog(seller);
  const meter = catalog.meters.find((m) => m.id === input.meterId);
  if (!meter) throw new AppError("not_found", { detail: "no such meter" });
  const before = meter.priceMicros;
  const operations = catalog.operations.filter((o) => o.meter?.id === meter.id).map((o) => o.key);
  const history = await getPriceHistory(input.sellerId, operations);
  const atCurrent = history.find((h) => h.unitMicros === before);
  const railsBefore = before === null ? [] : railsOffering(before);
  const railsAfter = railsOffering(after);
  const names = (rails: { rail: string }[]) => new Set(rails.map((r) => r.rail));
  return {
    meter: { id: meter.id, key: meter.key, title: meter.title, operations },
    beforeUsd: before === null ? null : microsToUsd(before),
    afterUsd: microsToUsd(after),
    unchanged: before === after,
    last30Days: {
      byPrice: history.map(({ unitMicros, ...h }) => ({ ...h, current: unitMicros === before })),
      // The calls charged at the current price, had they paid the new one (an estimate: some agents may stop, or start).
      atNewPrice: atCurrent ? { calls: atCurrent.calls, revenueUsd: microsToUsd(after * BigInt(atCurrent.calls)) } : null,
    },
    rails: {
      before: railsBefore,
      after: railsAfter,
      gained: railsAfter.filter((r) => !names(railsBefore).has(r.rail)).map((r) => r.rail),
      lost: railsBefore.filter((r) => !names(railsAfter).has(r.rail)).map((r) => r.rail),
    },
    cardMinimumUsd: microsToUsd(CARD_MINIMUM_MICROS),
  };
}
