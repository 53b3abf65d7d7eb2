import { buildX402Discovery } from "@/server/discovery/x402-discovery";
import { discoveryJson } from "@/server/http/discovery";
import { methods } from "@/server/http/route";

// GET /.well-known/x402 - x402 discovery manifest (x402 #2582 / PR #2646): every priced HTTP route and MCP tool with its x402 offer
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: async (ctx) => discoveryJson(ctx.req, buildX402Discovery(await ctx.catalog(), ctx.origin)),
});
