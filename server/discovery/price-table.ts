// The one price table every discovery document states: which operations are sold at a price, for how much, on which
// meter, and on which rails. OpenAPI (`x-payment-info`), the manifest, /.well-known/x402, /llms.txt and the MCP tool
// list all read it from here, so a price change in the console shows in all of them on the next request.
import type { Catalog } from "../catalog/catalog";
import { microsToUsd } from "../lib/money";
import { discoveryOffers, RAILS } from "../payments/rails";
import type { Rail } from "../payments/rails/rail";
import { listDiscoverable, type DiscoverableOperation } from "./discoverable";

type Priced = Pick<DiscoverableOperation, "key" | "meter">;

/** The rails that take this operation: every rail that can charge its price; the $0 quote takes wallet proofs. */
export function railsFor(op: Priced): Rail<unknown>[] {
  if (!op.meter) return [];
  if (op.meter.priceMicros > 0n) return RAILS.filter((r) => r.price(op.meter!.priceMicros) !== null);
  return op.key === "advisor_quote" ? RAILS.filter((r) => r.verifyWalletProof) : [];
}

/**
 * An operation's price as the price table states it (the manifest's meter in the operation's terms): its USD price,
 * micro-USD, meter, included units and the rails that take it; undefined for unmetered operations.
 */
export function priceEntry(op: Priced) {
  if (!op.meter) return undefined;
  return {
    priceUsd: microsToUsd(op.meter.priceMicros),
    amountMicros: op.meter.priceMicros.toString(),
    meter: op.meter.key,
    unit: "request",
    includedUnits: op.meter.includedUnits,
    protocols: railsFor(op).map((r) => r.name),
  };
}

export type PaymentInfo = NonNullable<ReturnType<typeof paymentInfo>>;

/**
 * OpenAPI's `x-payment-info` (and a paid MCP tool's `_meta`): the price entry with `offers`, one per rail and method in
 * the MPP discovery draft's shape (amounts in each asset's base units). The draft forbids its flat fields (`amount`,
 * `currency`, `intent`, `method`, `description`) beside `offers` and an empty `offers`, and wants a 402 wherever the
 * block is, so an operation served without payment (no offer) has none: undefined.
 */
export function paymentInfo(op: Priced) {
  const entry = priceEntry(op);
  if (!entry) return undefined;
  const offers = railsFor(op).flatMap((r) => discoveryOffers(r, op.meter!.priceMicros));
  return offers.length ? { ...entry, offers } : undefined;
}

export type PricedOperation = { op: DiscoverableOperation; info: PaymentInfo };

/** Every live operation sold at a price above zero (and offered on some rail), in catalog order. */
export function pricedOperations(catalog: Catalog): PricedOperation[] {
  return listDiscoverable(catalog).flatMap((op) => {
    const info = op.meter && op.meter.priceMicros > 0n ? paymentInfo(op) : undefined;
    return info ? [{ op, info }] : [];
  });
}
