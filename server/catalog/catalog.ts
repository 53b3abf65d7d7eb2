// The catalog as the rest of the app sees it: plain objects, prices as BigInt micros, cached per
// (seller, catalogVersion). Any catalog change bumps the version in its own transaction, so a cached
// copy is never served after a change, on this instance or any other.
import { AppError } from "../errors";
import { loadCatalogRows, type SellerRow } from "./catalog.queries";

export type CatalogMeter = { id: string; key: string; title: string; unit: string; includedUnits: number; priceMicros: bigint | null; priceId: string | null };
export type CatalogService = { id: string; slug: string; title: string; description: string; upstreamUrl: string; status: string };
export type CatalogOperation = {
  id: string;
  key: string;
  method: string;
  pathTemplate: string;
  upstreamPath: string;
  summary: string;
  description: string;
  kind: string;
  parameters: unknown;
  service: CatalogService;
  meter: CatalogMeter | null;
  /** Compiled from pathTemplate: matches a request path, capturing `{name}` segments. */
  matcher: { regex: RegExp; names: string[] };
};
export type CatalogPlan = {
  id: string;
  slug: string;
  name: string;
  description: string;
  kind: "payg" | "credit";
  minimumMicros: bigint | null;
  maximumMicros: bigint | null;
  cardMinimumMicros: bigint | null;
  /** How long credit bought on the plan lasts. */
  creditValidityDays: number;
  meterKeys: string[];
};
export type Catalog = {
  seller: SellerRow;
  hosts: string[];
  services: CatalogService[];
  operations: CatalogOperation[];
  meters: CatalogMeter[];
  plans: CatalogPlan[];
};

export function compilePathTemplate(template: string): { regex: RegExp; names: string[] } {
  const names: string[] = [];
  const pattern = template
    .split("/")
    .map((seg) => {
      const m = /^\{([a-zA-Z_][a-zA-Z0-9_]*)\}$/.exec(seg);
      if (m) {
        names.push(m[1]!);
        return "([^/]+)";
      }
      return seg.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    })
    .join("/");
  return { regex: new RegExp(`^${pattern}$`), names };
}

const cache = new Map<string, { version: number; catalog: Catalog }>();

export async function getCatalog(seller: SellerRow): Promise<Catalog> {
  const hit = cache.get(seller.id);
  if (hit && hit.version === seller.catalogVersion) return hit.catalog;
  const rows = await loadCatalogRows(seller.id);
  if (!rows) throw new AppError("seller_not_found");
  const meters: CatalogMeter[] = rows.meters.map((m) => ({
    id: m.id,
    key: m.key,
    title: m.title,
    unit: m.unit,
    includedUnits: m.includedUnits,
    priceMicros: m.price?.amountMicros ?? null,
    priceId: m.price?.id ?? null,
  }));
  const services: CatalogService[] = rows.services.map((s) => ({
    id: s.id,
    slug: s.slug,
    title: s.title,
    description: s.description,
    upstreamUrl: s.upstreamUrl,
    status: s.status,
  }));
  const operations: CatalogOperation[] = rows.operations.map((o) => ({
    id: o.id,
    key: o.key,
    method: o.method,
    pathTemplate: o.pathTemplate,
    upstreamPath: o.upstreamPath,
    summary: o.summary,
    description: o.description,
    kind: o.kind,
    parameters: o.parameters,
    service: services.find((s) => s.id === o.serviceId)!,
    meter: meters.find((m) => m.id === o.meterId) ?? null,
    matcher: compilePathTemplate(o.pathTemplate),
  }));
  const plans: CatalogPlan[] = rows.plans
    .filter((p) => p.status === "live")
    .map((p) => ({
      id: p.id,
      slug: p.slug,
      name: p.name,
      description: p.description,
      kind: p.kind === "credit" ? "credit" : "payg",
      minimumMicros: p.minimumMicros,
      maximumMicros: p.maximumMicros,
      cardMinimumMicros: p.cardMinimumMicros,
      creditValidityDays: p.creditValidityDays,
      meterKeys: p.meters.map((pm) => pm.meter.key).sort(),
    }));
  const { hosts, services: _s, operations: _o, meters: _m, plans: _p, ...sellerRow } = rows;
  const catalog: Catalog = { seller: sellerRow, hosts: hosts.map((h) => h.hostname), services, operations, meters, plans };
  cache.set(seller.id, { version: seller.catalogVersion, catalog });
  return catalog;
}

/** Live operations only (their service is live). */
export function liveOperations(catalog: Catalog): CatalogOperation[] {
  return catalog.operations.filter((o) => o.service.status === "live");
}

export type OperationMatch = { operation: CatalogOperation; pathParams: Record<string, string> };

/** Find the operation a request addresses. `methodMismatch` tells a 405 from a 404. */
export function matchOperation(catalog: Catalog, method: string, pathname: string): OperationMatch | { methodMismatch: true; allowed: string[] } | null {
  const allowed: string[] = [];
  for (const op of liveOperations(catalog)) {
    const m = op.matcher.regex.exec(pathname);
    if (!m) continue;
    if (op.method !== method.toUpperCase()) {
      allowed.push(op.method);
      continue;
    }
    const pathParams: Record<string, string> = {};
    op.matcher.names.forEach((n, i) => {
      pathParams[n] = safeDecode(m[i + 1]!);
    });
    return { operation: op, pathParams };
  }
  return allowed.length ? { methodMismatch: true, allowed } : null;
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
