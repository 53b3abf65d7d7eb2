import { buildManifest } from "@/server/discovery/manifest";
import { discoveryJson } from "@/server/http/discovery";
import { methods } from "@/server/http/route";

// GET /manifest.json - live services, meters, plans, prices and included units (authoritative prices)
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: async (ctx) => discoveryJson(ctx.req, buildManifest(await ctx.catalog(), ctx.origin)),
});
