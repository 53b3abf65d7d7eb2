import { buildServiceCatalog } from "@/server/discovery/manifest";
import { discoveryJson } from "@/server/http/discovery";
import { methods } from "@/server/http/route";

// GET /services - the service catalog
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: async (ctx) => discoveryJson(ctx.req, buildServiceCatalog(await ctx.catalog(), ctx.origin)),
});
