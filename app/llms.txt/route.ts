import { buildLlmsTxt } from "@/server/discovery/llms-txt";
import { discoveryText } from "@/server/http/discovery";
import { methods } from "@/server/http/route";

// GET /llms.txt - the storefront for language models: what is sold at what price, how to pay on each rail, how to connect over MCP
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: async (ctx) => discoveryText(ctx.req, buildLlmsTxt(await ctx.catalog(), ctx.origin), "text/markdown; charset=utf-8"),
});
