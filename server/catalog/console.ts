// What the seller console reads and changes. Every function takes the seller id from the session
// (sellerProcedure), never from the client, so another seller's rows are unreachable.
import { AppError } from "../http/errors";
import { formatUsd, microsToUsd, parseUsd } from "../lib/money";
import { getCatalog } from "./catalog";
import { findAuditLogs, findSellerById, updateMeterPrice } from "./catalog.queries";
import { microsToCents } from "../lib/money";

export const MAX_PRICE_MICROS = 1_000_000_000n; // $1,000 per request

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
    plans: c.plans.map((p) => ({
      id: p.id,
      slug: p.slug,
      name: p.name,
      kind: p.kind,
      meters: p.meterKeys,
      minimumUsd: p.minimumMicros != null ? microsToCents(p.minimumMicros) : null,
      maximumUsd: p.maximumMicros != null ? microsToCents(p.maximumMicros) : null,
      cardMinimumUsd: p.cardMinimumMicros != null ? microsToCents(p.cardMinimumMicros) : null,
    })),
  };
}

export async function changeMeterPrice(input: { sellerId: string; actorId: string; meterId: string; amountUsd: string }) {
  const micros = parseUsd(input.amountUsd);
  if (micros === null) throw new AppError("invalid_request", { detail: "amountUsd must be a decimal such as 0.02 with at most 6 decimal places", extra: { parameter: "amountUsd" } });
  if (micros > MAX_PRICE_MICROS) throw new AppError("invalid_request", { detail: `amountUsd must be at most ${microsToUsd(MAX_PRICE_MICROS)}`, extra: { parameter: "amountUsd" } });
  const res = await updateMeterPrice({ sellerId: input.sellerId, meterId: input.meterId, amountMicros: micros, actorId: input.actorId });
  // Another seller's meter id matches no row: indistinguishable from a missing one.
  if (!res) throw new AppError("not_found", { detail: "no such meter" });
  return { meter: res.meterKey, beforeUsd: microsToUsd(res.beforeMicros), afterUsd: microsToUsd(res.afterMicros) };
}

export async function listAuditLog(sellerId: string) {
  const rows = await findAuditLogs(sellerId);
  return rows.map((r) => ({ id: r.id, action: r.action, target: `${r.targetType}:${r.targetId}`, actor: r.actor?.email ?? null, before: r.before, after: r.after, at: r.createdAt.toISOString() }));
}
