// The console's view of a seller's catalog: storefront, services with their operations, meters with prices,
// (plans, retired ones too, come from manage-plans.ts). The seller id comes from the session (sellerProcedure), never the client.
import { AppError } from "../errors";
import { formatUsd, microsToUsd } from "../lib/money";
import { getCatalog } from "./catalog";
import { findSellerById } from "./catalog.queries";

export async function getSellerOverview(sellerId: string) {
  const seller = await findSellerById(sellerId);
  if (!seller) throw new AppError("seller_not_found");
  const c = await getCatalog(seller);
  return {
    seller: { id: seller.id, name: seller.name, slug: seller.slug, hosts: c.hosts, signingSecretSet: !!seller.signingSecret, payTo: seller.payToAddress },
    services: c.services.map((s) => ({
      id: s.id,
      slug: s.slug,
      title: s.title,
      status: s.status,
      upstreamUrl: s.upstreamUrl,
      operations: c.operations
        .filter((o) => o.service.id === s.id)
        .map((o) => ({ id: o.id, key: o.key, method: o.method, path: o.pathTemplate, summary: o.summary, meter: o.meter?.key ?? null })),
    })),
    meters: c.meters.map((m) => ({
      id: m.id,
      key: m.key,
      title: m.title,
      unit: m.unit,
      includedUnits: m.includedUnits,
      priceUsd: m.priceMicros != null ? microsToUsd(m.priceMicros) : null,
      priceLabel: m.priceMicros != null ? formatUsd(m.priceMicros) : "not priced",
    })),
  };
}
