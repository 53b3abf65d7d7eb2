// Response helpers shared by the discovery routes.
import { createHash } from "node:crypto";
import { buildOpenApi, linkHeader } from "../discovery/openapi";
import { stringifyJson } from "./respond";
import type { RouteContext } from "./route";

/** Discovery documents change when a seller edits the catalog: clients revalidate every time (cheaply, by ETag). */
export const DISCOVERY_CACHE = "no-cache";

/** RFC 9110 If-None-Match: `*` or a list of entity tags, compared weakly (a W/ prefix does not matter). */
export function matchesIfNoneMatch(header: string | null, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === "*") return true;
  const opaque = (t: string) => t.trim().replace(/^W\//, "");
  return header.split(",").some((t) => opaque(t) === opaque(etag));
}

/**
 * A discovery document as JSON with a strong ETag over its exact bytes, so an agent that re-reads the catalog
 * before every call gets 304 Not Modified (no body) until the seller changes something. The bytes include the
 * origin, so each storefront host has its own tags.
 */
export function discoveryJson(req: Request, body: unknown, headers: Record<string, string> = {}): Response {
  return discoveryText(req, stringifyJson(body), "application/json; charset=utf-8", headers);
}

/** The same for a document that is text already (/llms.txt): a strong ETag over its bytes, 304 when it matches. */
export function discoveryText(req: Request, text: string, contentType: string, headers: Record<string, string> = {}): Response {
  const etag = `"${createHash("sha256").update(text).digest("base64url").slice(0, 32)}"`;
  const common = { "cache-control": DISCOVERY_CACHE, etag, ...headers };
  if (matchesIfNoneMatch(req.headers.get("if-none-match"), etag)) return new Response(null, { status: 304, headers: common });
  return new Response(text, { headers: { "content-type": contentType, ...common } });
}

export async function openApiResponse(ctx: RouteContext, restrictService?: string): Promise<Response> {
  const result = buildOpenApi(await ctx.catalog(), { origin: ctx.origin, selfPath: ctx.url.pathname, params: ctx.url.searchParams, restrictService });
  const link = linkHeader(result);
  return discoveryJson(ctx.req, result.document, link ? { link } : {});
}
