// Which storefront a request is addressed to, by its host name. Every request asks, so the answer is cached in the
// instance, and kept true across instances by PostgreSQL itself: a trigger announces every change of a seller's row
// or hosts on channel `catalog_changed` (at commit), and each instance drops what it cached for that seller. The cache
// is used only while the instance is listening; while it is not (starting, connection lost), every request reads the
// row, as before. A read that raced a change is not cached (generation check), so a stale row never sticks.
import { AppError } from "../errors";
import { findSellerByHost, listenForCatalogChanges, type SellerRow } from "./catalog.queries";

type SellerCache = { listening: boolean; started: boolean; generation: number; byHost: Map<string, SellerRow> };

// On globalThis: Next.js may load this module more than once (route bundles, instrumentation); one cache per process.
const state: SellerCache = ((globalThis as unknown as { __sellerCache?: SellerCache }).__sellerCache ??= {
  listening: false,
  started: false,
  generation: 0,
  byHost: new Map(),
});

function forget(sellerId: string | null): void {
  state.generation++;
  if (sellerId === null) state.byHost.clear();
  else for (const [host, s] of state.byHost) if (s.id === sellerId) state.byHost.delete(host);
}

/** Drop what this instance cached for a seller now (the writer's own instance does not wait for its notification). */
export function invalidateSeller(sellerId: string): void {
  forget(sellerId);
}

function ensureListening(): void {
  if (state.started) return;
  state.started = true;
  listenForCatalogChanges(
    (sellerId) => forget(sellerId || null),
    (s) => {
      // Whatever was cached before (re)subscribing may have missed a notification.
      forget(null);
      state.listening = s === "listening";
    },
  );
}

/** Host header -> host name without port, lower case. IPv6 literals keep their brackets. */
export function hostnameOf(hostHeader: string | null): string {
  if (!hostHeader) return "";
  const h = hostHeader.trim().toLowerCase();
  if (h.startsWith("[")) return h.slice(0, h.indexOf("]") + 1);
  return h.split(":")[0]!;
}

/** The storefront a request is addressed to, by its host name; 404 seller_not_found otherwise. */
export async function resolveSeller(hostHeader: string | null): Promise<SellerRow> {
  ensureListening();
  const hostname = hostnameOf(hostHeader);
  const cached = state.listening ? state.byHost.get(hostname) : undefined;
  if (cached) return cached;
  const generation = state.generation;
  const seller = hostname ? await findSellerByHost(hostname) : null;
  if (!seller) throw new AppError("seller_not_found", { detail: `no storefront answers on host "${hostname}"` });
  if (state.listening && state.generation === generation) {
    if (state.byHost.size > 10_000) state.byHost.clear();
    state.byHost.set(hostname, seller);
  }
  return seller;
}
