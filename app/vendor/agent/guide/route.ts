import { buildGuide } from "@/server/discovery/guide";
import { advisorGuideQuery } from "@/server/contracts/operations";
import { readJson } from "@/server/http/parse";
import { parseQuery, parseWith } from "@/server/validation";
import { json } from "@/server/http/respond";
import { methods, type RouteContext } from "@/server/http/route";

async function guide(ctx: RouteContext, goal: string) {
  return json(buildGuide(await ctx.catalog(), goal, ctx.origin), { headers: { "cache-control": "no-store" } });
}

// GET /vendor/agent/guide?goal=... - free advice on which operations and plans fit a goal (no wallet)
// POST /vendor/agent/guide {goal} - the same, for clients that prefer a body
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: (ctx) => guide(ctx, parseQuery(advisorGuideQuery, ctx.url.searchParams).goal),
  POST: async (ctx) => guide(ctx, parseWith(advisorGuideQuery, await readJson(ctx.req)).goal),
});
