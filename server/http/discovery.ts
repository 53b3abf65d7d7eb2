// Response helpers shared by the discovery routes.
import { buildOpenApi, linkHeader } from "../catalog/openapi";
import { json } from "./respond";
import type { RouteContext } from "./route";

/** Discovery documents change when a seller edits the catalog: clients revalidate every time. */
export const DISCOVERY_CACHE = "no-cache";

export async function openApiResponse(ctx: RouteContext, restrictService?: string): Promise<Response> {
  const result = buildOpenApi(await ctx.catalog(), { origin: ctx.origin, selfPath: ctx.url.pathname, params: ctx.url.searchParams, restrictService });
  const headers: Record<string, string> = { "cache-control": DISCOVERY_CACHE };
  const link = linkHeader(result);
  if (link) headers.link = link;
  return json(result.document, { headers });
}
