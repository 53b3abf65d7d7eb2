// GET /manifest.json: live services, meters, plans with purchase bounds, prices and free included units.
// Authoritative: the gateway charges exactly these prices (both read the same cached catalog).
import type { Catalog } from "../catalog/catalog";
import { planPurchaseTerms } from "../catalog/plan-purchase-terms";
import { PLATFORM_CONTRACTS, PLATFORM_SERVICE } from "../contracts/platform";
import { microsToUsd } from "../lib/money";
import { RAILS } from "../payments/rails";
import { railsFor } from "./price-table";

export function buildManifest(catalog: Catalog, origin: string) {
  const liveServices = catalog.services.filter((s) => s.status === "live");
  const ops = catalog.operations.filter((o) => o.service.status === "live");
  const usedMeters = new Set(ops.map((o) => o.meter?.key).filter(Boolean));
  return {
    manifestVersion: 1,
    apiVersion: "1.0.0",
    seller: { id: catalog.seller.id, name: catalog.seller.name },
    currency: "USD",
    /** Increments on every catalog change (price, plan, service): the manifest is the same document until it does. */
    catalogVersion: catalog.seller.catalogVersion,
    openapi: `${origin}/openapi.json`,
    services: liveServices.map((s) => ({
      slug: s.slug,
      title: s.title,
      description: s.description,
      openapi: `${origin}/services/${s.slug}/openapi.json`,
      operations: ops
        .filter((o) => o.service.id === s.id)
        .map((o) => ({
          key: o.key,
          method: o.method,
          path: o.pathTemplate,
          summary: o.summary,
          meter: o.meter?.key ?? null,
          priceUsd: o.meter?.priceMicros != null ? microsToUsd(o.meter.priceMicros) : null,
          // The rails that take this price (price-table.ts), as OpenAPI's x-payment-info.protocols states them.
          protocols: railsFor({ key: o.key, meter: o.meter?.priceMicros != null ? { ...o.meter, priceMicros: o.meter.priceMicros } : null }).map((r) => r.name),
        })),
    })),
    meters: catalog.meters
      .filter((m) => usedMeters.has(m.key))
      .map((m) => ({
        key: m.key,
        title: m.title,
        unit: m.unit,
        priceUsd: m.priceMicros != null ? microsToUsd(m.priceMicros) : null,
        priceMicros: m.priceMicros?.toString() ?? null,
        includedUnits: m.includedUnits,
      })),
    plans: catalog.plans.map((p) => ({
      id: p.id,
      slug: p.slug,
      name: p.name,
      kind: p.kind,
      description: p.description,
      meters: p.meterKeys,
      purchase: p.kind === "credit" ? { url: `${origin}/plans/${p.id}/purchase`, ...planPurchaseTerms(p) } : null,
    })),
    // The rails that really work here: one block per registered rail, so nothing is advertised that is not taken.
    payment: {
      accessMode: "payg",
      protocols: RAILS.map((r) => r.name),
      ...Object.fromEntries(RAILS.map((r) => [r.name, r.describe({ payTo: catalog.seller.payToAddress })])),
    },
    platform: { slug: PLATFORM_SERVICE.slug, description: PLATFORM_SERVICE.description },
  };
}

export function buildServiceCatalog(catalog: Catalog, origin: string) {
  const ops = catalog.operations.filter((o) => o.service.status === "live");
  const services = catalog.services
    .filter((s) => s.status === "live")
    .map((s) => {
      const mine = ops.filter((o) => o.service.id === s.id);
      const prices = mine.map((o) => o.meter?.priceMicros).filter((p): p is bigint => p != null);
      return {
        slug: s.slug,
        title: s.title,
        description: s.description,
        operations: mine.length,
        fromPriceUsd: prices.length ? microsToUsd(prices.reduce((a, b) => (b < a ? b : a))) : null,
        paths: mine.map((o) => `${o.method} ${o.pathTemplate}`),
        openapi: `${origin}/services/${s.slug}/openapi.json`,
      };
    });
  services.push({
    slug: PLATFORM_SERVICE.slug,
    title: PLATFORM_SERVICE.title,
    description: PLATFORM_SERVICE.description,
    operations: PLATFORM_CONTRACTS.length,
    fromPriceUsd: "0.000000",
    paths: [],
    openapi: `${origin}/services/${PLATFORM_SERVICE.slug}/openapi.json`,
  });
  return { count: services.length, services };
}
