import { AppError } from "../errors";
import { findSellerByHost, type SellerRow } from "./catalog.queries";

/** Host header -> host name without port, lower case. IPv6 literals keep their brackets. */
export function hostnameOf(hostHeader: string | null): string {
  if (!hostHeader) return "";
  const h = hostHeader.trim().toLowerCase();
  if (h.startsWith("[")) return h.slice(0, h.indexOf("]") + 1);
  return h.split(":")[0]!;
}

/** The storefront a request is addressed to, by its host name; 404 seller_not_found otherwise. */
export async function resolveSeller(hostHeader: string | null): Promise<SellerRow> {
  const hostname = hostnameOf(hostHeader);
  const seller = hostname ? await findSellerByHost(hostname) : null;
  if (!seller) throw new AppError("seller_not_found", { detail: `no storefront answers on host "${hostname}"` });
  return seller;
}
