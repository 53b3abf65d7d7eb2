// GET /.well-known/x402 (and /.well-known/x402.json): the origin's x402 discovery manifest, in the shape proposed by
// x402 issue #2582 / PR #2646 (`{x402Version: 2, items: [{resource, type, accepts, input, output?}]}`), generated from
// the price table like every other discovery document. Each priced operation appears twice: as its HTTP route and as
// its MCP tool. `accepts` is advisory (the live 402 or payment-required tool result, with its signed challenge, is
// authoritative). Each item also carries the price table's own entry (`x-payment-info`): the rails other than x402.
// An HTTP item's `resource.url` is a URL that answers (its operation's example call: a crawler probing it gets the 402),
// its template stays in `input.routeTemplate`. The same URLs are listed in `resources`, with `version: 1` and
// `instructions`: the document crawlers such as x402scan read at this path.
import { z } from "zod";
import type { Catalog } from "../catalog/catalog";
import { exactRequirements } from "../payments/eip3009/authorization";
import type { DiscoverableOperation } from "./discoverable";
import { dataTools } from "./mcp-tools";
import { pricedOperations } from "./price-table";

/** `/api/v1/aggregates/{ticker}` -> `/api/v1/aggregates/:ticker`: the route template form the proposal uses. */
export function routeTemplate(path: string): string {
  return path.replace(/\{([^}]+)\}/g, ":$1");
}

function parameterSchema(shape: z.ZodObject | undefined): Record<string, unknown> | undefined {
  if (!shape || Object.keys(shape.shape).length === 0) return undefined;
  const { $schema: _drop, ...rest } = z.toJSONSchema(shape, { io: "output", unrepresentable: "any", target: "draft-2020-12" }) as Record<string, unknown>;
  return rest;
}

/** A URL that calls the operation (its example call, which answers offline); the route template where it has none. */
function callableUrl(op: DiscoverableOperation, origin: string): { url: string; callable: boolean } {
  return op.examples ? { url: `${origin}${op.examples.request}`, callable: true } : { url: `${origin}${routeTemplate(op.path)}`, callable: false };
}

// The proposal's ResourceInfo bounds `serviceName` and tags to 32 printable characters.
const short = (s: string) => (/^[\x20-\x7e]{1,32}$/.test(s) ? s : undefined);

export function buildX402Discovery(catalog: Catalog, origin: string) {
  const payTo = catalog.seller.payToAddress;
  const tools = new Map(dataTools(catalog).map((t) => [t.name, t]));
  // An x402 manifest lists what x402 pays; an operation whose price no x402 offer takes is not in it, nor one this
  // instance refuses before any payment (a live-only operation offline): a crawler would find no 402 there.
  const priced = pricedOperations(catalog).filter(({ op, info }) => info.protocols.includes("x402") && !op.refusedBeforePayment);
  const items = priced.flatMap(({ op, info }) => {
    const accepts = payTo ? [exactRequirements({ amountMicros: BigInt(info.amountMicros), payTo })] : [];
    const resource = (url: string) => ({
      url,
      description: op.summary,
      mimeType: "application/json",
      ...(short(op.service.slug) ? { serviceName: op.service.slug } : {}),
      tags: [op.service.slug, op.key].filter((t) => short(t)),
    });
    const http = {
      resource: resource(callableUrl(op, origin).url),
      type: "http",
      accepts,
      input: {
        method: op.method,
        routeTemplate: routeTemplate(op.path),
        ...(parameterSchema(op.contract?.pathParams) ? { pathParams: parameterSchema(op.contract?.pathParams) } : {}),
        ...(parameterSchema(op.contract?.query) ? { queryParams: parameterSchema(op.contract?.query) } : {}),
      },
      output: { mimeType: "application/json" },
      "x-payment-info": info,
    };
    const tool = tools.get(op.key);
    const mcp = tool && {
      resource: resource(`${origin}/mcp`),
      type: "mcp",
      accepts,
      input: { toolName: tool.name, inputSchema: tool.inputSchema, transport: "streamable-http" },
      output: { mimeType: "application/json" },
      "x-payment-info": info,
    };
    return mcp ? [http, mcp] : [http];
  });
  const resources = priced.flatMap(({ op }) => {
    const { url, callable } = callableUrl(op, origin);
    return callable ? [op.method === "GET" ? url : `${op.method} ${url}`] : [];
  });
  return {
    x402Version: 2,
    items,
    version: 1,
    resources,
    instructions:
      "Each resource answers an unpaid call with 402: an x402 offer (PAYMENT-REQUIRED) beside the other rails' challenges (MPP; card from $0.50); " +
      "pay one and retry the same request. " +
      `Every operation, its parameters and prices: ${origin}/openapi.json (paged, follow info.x-next) and ${origin}/llms.txt; the same operations as MCP tools at ${origin}/mcp.`,
  };
}
