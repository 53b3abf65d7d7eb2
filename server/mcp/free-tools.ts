// The free tools: the guide, operation search, prices and plans, and the caller's entitlements. Each answers what the
// HTTP document of the same name answers (guide, /openapi.json search, /manifest.json, /agent/entitlements), as
// structured content and as its JSON text.
import { z } from "zod";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { getEntitlements } from "../billing/get-entitlements";
import type { Catalog } from "../catalog/catalog";
import { advisorGuideQuery } from "../contracts/operations";
import { listDiscoverable } from "../discovery/discoverable";
import { buildGuide } from "../discovery/guide";
import { buildManifest } from "../discovery/manifest";
import { FREE_TOOLS, listTools, type FreeToolName } from "../discovery/mcp-tools";
import { selectOperations } from "../discovery/openapi";
import { priceEntry } from "../discovery/price-table";
import { AppError } from "../errors";
import { stringifyJson } from "../http/respond";
import type { AgentPrincipal } from "../identity/require-agent";
import { parseWith } from "../validation";

export type FreeToolContext = { catalog: Catalog; origin: string; agent: AgentPrincipal | null };

/** A JSON value as a tool result: structured content (BigInt as strings, as over HTTP) and the same JSON as text. */
export function jsonResult(value: unknown): CallToolResult {
  const text = stringifyJson(value);
  return { content: [{ type: "text", text }], structuredContent: JSON.parse(text) as Record<string, unknown> };
}

const searchArgs = z.strictObject({
  query: z.string().min(1).max(200).optional(),
  service: z
    .string()
    .regex(/^[a-z0-9][a-z0-9-]{0,63}$/, "must be a service slug")
    .optional(),
});
const noArgs = z.strictObject({});

const HANDLERS: Record<FreeToolName, (args: unknown, c: FreeToolContext) => Promise<CallToolResult> | CallToolResult> = {
  [FREE_TOOLS.guide.name]: (args, c) => jsonResult(buildGuide(c.catalog, parseWith(advisorGuideQuery, args ?? {}, "arguments").goal, c.origin)),

  [FREE_TOOLS.search.name]: (args, c) => {
    const { query, service } = parseWith(searchArgs, args ?? {}, "arguments");
    const toolOf = new Map(listTools(c.catalog).data.map((t) => [t.operation.key, t.name]));
    const sold = listDiscoverable(c.catalog).filter((o) => o.kind !== "platform");
    const ranked = selectOperations(sold, { q: query, service }).slice(0, 10);
    return jsonResult({
      query: query ?? null,
      results: ranked.map(({ op, score }) => {
        const price = priceEntry(op);
        return {
          tool: toolOf.get(op.key) ?? null,
          operation: op.key,
          method: op.method,
          path: op.path,
          service: op.service.slug,
          summary: op.summary,
          price_usd: price?.priceUsd ?? null,
          meter: price?.meter ?? null,
          rails: price?.protocols ?? [],
          ...(score !== undefined ? { score } : {}),
        };
      }),
    });
  },

  [FREE_TOOLS.prices.name]: (args, c) => {
    parseWith(noArgs, args ?? {}, "arguments");
    return jsonResult(buildManifest(c.catalog, c.origin));
  },

  [FREE_TOOLS.entitlements.name]: async (args, c) => {
    parseWith(noArgs, args ?? {}, "arguments");
    if (!c.agent)
      throw new AppError("bearer_required", {
        detail:
          "connect with Authorization: Bearer <agent access token> on the MCP requests: register at /agent/identity, exchange the assertion at /oauth2/token",
      });
    return jsonResult(await getEntitlements(c.agent, c.catalog));
  },
};

export function isFreeTool(name: string): name is FreeToolName {
  return Object.hasOwn(HANDLERS, name);
}

export function callFreeTool(name: FreeToolName, args: unknown, c: FreeToolContext): Promise<CallToolResult> {
  return Promise.resolve(HANDLERS[name](args, c));
}
