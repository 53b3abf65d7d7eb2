import { buildManifest } from "@/server/catalog/manifest";
import { DISCOVERY_CACHE } from "@/server/http/discovery";
import { json } from "@/server/http/respond";
import { methods } from "@/server/http/route";

// GET /manifest.json - live services, meters, plans, prices and included units (authoritative prices)
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: async (ctx) => json(buildManifest(await ctx.catalog(), ctx.origin), { headers: { "cache-control": DISCOVERY_CACHE } }),
});
