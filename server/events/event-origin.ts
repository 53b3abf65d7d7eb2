// The origin links in an event point at (a checkout page, a plan's purchase URL): PUBLIC_URL when set, as for every
// link the API writes; otherwise the storefront's first host, as the seller's agents reach it (https, except a
// loopback or *.localhost host, which is this machine's demo: http on PORT).
import { env } from "../env";
import { findSellerHosts } from "./events.queries";

const TTL_MS = 60_000;
const cache = new Map<string, { at: number; origin: string }>();

export function originForHost(host: string | undefined, e = env()): string {
  if (e.PUBLIC_URL) return e.PUBLIC_URL.replace(/\/$/, "");
  if (!host) return `http://localhost:${e.PORT}`;
  const local = host === "localhost" || host === "127.0.0.1" || host === "[::1]" || host.endsWith(".localhost");
  return local ? `http://${host}:${e.PORT}` : `https://${host}`;
}

export async function storefrontOrigin(sellerId: string): Promise<string> {
  const hit = cache.get(sellerId);
  if (hit && Date.now() - hit.at < TTL_MS) return hit.origin;
  const origin = originForHost((await findSellerHosts(sellerId))[0]);
  cache.set(sellerId, { at: Date.now(), origin });
  return origin;
}
