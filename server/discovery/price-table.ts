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

export type PaymentInfo = NonNullable<ReturnType<typeof paymentInfo>>;

/** An operation's price as discovery states it (OpenAPI's `x-payment-info`); undefined for unmetered operations. */
export function paymentInfo(op: Priced) {
  if (!op.meter) return undefined;
  const rails = railsFor(op);
  return {
    amount: microsToUsd(op.meter.priceMicros),
    amountMicros: op.meter.priceMicros.toString(),
    currency: "USD",
    meter: op.meter.key,
    intent: "charge",
    unit: "request",
    includedUnits: op.meter.includedUnits,
    protocols: rails.map((r) => r.name),
    // The MPP discovery draft's shape: one offer per rail and method, amounts in the asset's base units.
    offers: rails.flatMap((r) => discoveryOffers(r, op.meter!.priceMicros)),
  };
}

export type PricedOperation = { op: DiscoverableOperation; info: PaymentInfo };

/** Every live operation sold at a price above zero, in catalog order. */
export function pricedOperations(catalog: Catalog): PricedOperation[] {
  return listDiscoverable(catalog).flatMap((op) => (op.meter && op.meter.priceMicros > 0n ? [{ op, info: paymentInfo(op)! }] : []));
}
