// The MCP tool list, generated from the catalog like every other discovery document: one tool per live data operation
// (its input schema is the operation's OpenAPI parameters, its description states the price from the price table),
// plus the free tools every storefront answers. Nothing here is written per operation by hand.
//
// No tool declares an `outputSchema`: MCP clients validate any `structuredContent` against it, and a paid tool's
// unpaid answer carries the payment requirements as structured content (x402's MCP binding), which no data schema
// describes. The response schemas stay in /openapi.json.
import type { Catalog } from "../catalog/catalog";
import { RAILS } from "../payments/rails";
import { listDiscoverable, type DiscoverableOperation } from "./discoverable";
import { parametersOf } from "./openapi";
import { paymentInfo, type PaymentInfo } from "./price-table";

/** MCP `_meta` key a tool's price is stated under (the same object as OpenAPI's `x-payment-info`). */
export const TOOL_PRICE_META_KEY = "x-payment-info";

export type JsonSchemaObject = { type: "object"; properties: Record<string, Record<string, unknown>>; required?: string[]; additionalProperties: false };

export type ToolDefinition = {
  name: string;
  title: string;
  description: string;
  inputSchema: JsonSchemaObject;
  annotations: { title: string; readOnlyHint: boolean; openWorldHint: boolean; idempotentHint?: boolean };
  _meta?: Record<string, unknown>;
};

export type DataTool = ToolDefinition & { operation: DiscoverableOperation; price: PaymentInfo | null };

type OpenApiParameter = { name: string; in: string; required?: boolean; description?: string; schema?: Record<string, unknown> };

/** One JSON Schema object over an operation's path and query parameters: the tool's arguments. */
export function toolInputSchema(op: DiscoverableOperation): JsonSchemaObject {
  const properties: Record<string, Record<string, unknown>> = {};
  const required: string[] = [];
  for (const p of parametersOf(op) as OpenApiParameter[]) {
    if (p.in !== "path" && p.in !== "query") continue;
    properties[p.name] = { ...(p.schema ?? {}), ...(p.description ? { description: p.description } : {}) };
    if (p.required) required.push(p.name);
  }
  return { type: "object", properties, ...(required.length ? { required } : {}), additionalProperties: false };
}

/** The price sentence of a paid tool's description (the test of discovery reads it back). */
export function describePrice(price: PaymentInfo): string {
  const free = price.includedUnits > 0 ? ` (${price.includedUnits} free calls per claimed human)` : "";
  return `Costs ${price.priceUsd} USD per call on meter \`${price.meter}\`${free}; paid with ${price.protocols.join(", ")}.`;
}

/** The storefront's data operations as tools, in catalog order. Advisor and platform operations have free tools instead. */
export function dataTools(catalog: Catalog): DataTool[] {
  return listDiscoverable(catalog)
    .filter((op) => op.kind === "data")
    .map((op) => {
      const price = op.meter && op.meter.priceMicros > 0n ? paymentInfo(op)! : null;
      const howToPay = price
        ? ` ${describePrice(price)} Called without payment it answers with the payment challenges (x402 and MPP MCP bindings); ` +
          "retry the call with the proof in _meta, or send an agent bearer on the MCP connection to pay from plan credit."
        : " Free.";
      return {
        name: op.key,
        title: op.summary,
        description: `${op.summary}. ${op.description}${op.coverage ? ` Coverage: ${op.coverage.summary}` : ""}${howToPay} HTTP equivalent: ${op.method} ${op.path}.`,
        inputSchema: toolInputSchema(op),
        annotations: { title: op.summary, readOnlyHint: op.method === "GET", openWorldHint: true, ...(op.method === "GET" ? { idempotentHint: true } : {}) },
        ...(price ? { _meta: { [TOOL_PRICE_META_KEY]: price } } : {}),
        operation: op,
        price,
      };
    });
}

/** The free tools every storefront answers, whatever its catalog. */
export const FREE_TOOLS = {
  guide: {
    name: "guide",
    title: "Which operations and plans fit a goal",
    description: "Free advice: the operations and plans that fit a goal, with their prices and how to pay. Never buys anything.",
    inputSchema: {
      type: "object",
      properties: { goal: { type: "string", minLength: 1, maxLength: 500, description: "The task, in plain words.", examples: ["daily AAPL bars for 2017"] } },
      required: ["goal"],
      additionalProperties: false,
    },
  },
  search: {
    name: "search_operations",
    title: "Search the operations",
    description: "Free: ranked search over this storefront's operations (paths, summaries, keywords), each with its MCP tool, price, meter and rails.",
    inputSchema: {
      type: "object",
      properties: {
        query: { type: "string", minLength: 1, maxLength: 200, description: "Words describing the data wanted." },
        service: { type: "string", maxLength: 64, description: "Restrict to one service slug (see prices_and_plans)." },
      },
      additionalProperties: false,
    },
  },
  prices: {
    name: "prices_and_plans",
    title: "Prices, meters, plans and payment rails",
    description:
      "Free: the manifest (authoritative prices): services and their operations with prices, meters, credit plans with purchase bounds, and the payment rails.",
    inputSchema: { type: "object", properties: {}, additionalProperties: false },
  },
  entitlements: {
    name: "entitlements",
    title: "Your plans, credit and free units",
    description:
      "Free: the plans the caller's agent credential holds here, remaining credit per meter and free units left. Needs the agent bearer on the MCP connection (Authorization: Bearer <access token>).",
    inputSchema: { type: "object", properties: {}, additionalProperties: false },
  },
} as const satisfies Record<string, Omit<ToolDefinition, "annotations">>;

export type FreeToolName = (typeof FREE_TOOLS)[keyof typeof FREE_TOOLS]["name"];

const freeToolList: ToolDefinition[] = Object.values(FREE_TOOLS).map((t) => ({
  ...t,
  inputSchema: t.inputSchema as unknown as JsonSchemaObject,
  annotations: { title: t.title, readOnlyHint: true, openWorldHint: false },
}));

// A catalog object is an immutable snapshot of one catalog version (catalog.ts), so its tools are computed once: the
// stateless MCP server builds its tool list on every request.
const toolsOf = new WeakMap<Catalog, { free: ToolDefinition[]; data: DataTool[] }>();

/** Every tool of this storefront: the free ones first, then one per data operation (a data tool never shadows a free one). */
export function listTools(catalog: Catalog): { free: ToolDefinition[]; data: DataTool[] } {
  let tools = toolsOf.get(catalog);
  if (!tools) {
    const taken = new Set(freeToolList.map((t) => t.name));
    tools = { free: freeToolList, data: dataTools(catalog).filter((t) => !taken.has(t.name)) };
    toolsOf.set(catalog, tools);
  }
  return tools;
}

/** What the MCP server tells a client it can pay with (MPP's capability advertisement): each MPP method and intent a rail describes. */
export function mppPaymentCapability(payTo: string | null): { methods: Record<string, { intents: string[] }> } {
  const methods: Record<string, { intents: string[] }> = {};
  const add = (block: unknown) => {
    const b = block as { method?: unknown; intent?: unknown; proofHeader?: unknown } | undefined;
    if (typeof b?.method === "string" && typeof b.intent === "string" && b.proofHeader === "Authorization: Payment")
      (methods[b.method] ??= { intents: [] }).intents.push(b.intent);
  };
  for (const rail of RAILS) {
    const d = rail.describe({ payTo }) as { mpp?: unknown };
    add(d);
    add(d.mpp);
  }
  return { methods };
}
