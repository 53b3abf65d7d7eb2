import { buildServiceCatalog } from "@/server/catalog/manifest";
import { DISCOVERY_CACHE } from "@/server/http/discovery";
import { json } from "@/server/http/respond";
import { methods } from "@/server/http/route";

// GET /services - the service catalog
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: async (ctx) => json(buildServiceCatalog(await ctx.catalog(), ctx.origin), { headers: { "cache-control": DISCOVERY_CACHE } }),
});
