// GET /openapi.json and /services/{slug}/openapi.json: an OpenAPI 3.1 document generated from the zod
// contracts (the same schemas that validate requests and responses), priced from the live catalog.
import { z } from "zod";
import type { Catalog } from "../catalog/catalog";
import { planPurchaseTerms } from "../catalog/plan-purchase-terms";
import { PLATFORM_SERVICE } from "../contracts/platform";
import { AppError, invalidParameter } from "../errors";
import { RAILS } from "../payments/rails";
import { exampleArguments, listDiscoverable, pathMatches, type DiscoverableOperation } from "./discoverable";
import { paymentInfo, railsFor } from "./price-table";
import { rankDocuments } from "./search";

export const PAGE_SIZE = 10;
const MAX_Q = 200;
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"];

export type OpenApiFilters = { q?: string; path?: string; method?: string; service?: string; page: number };

/** Parse and bound the discovery query; every malformed value is a 400 naming it (never a 500). */
export function parseOpenApiFilters(params: URLSearchParams): OpenApiFilters {
  const one = (name: string): string | undefined => {
    const all = params.getAll(name);
    if (all.length > 1) throw invalidParameter(name, `${name} is given more than once`);
    return all[0];
  };
  const q = one("q");
  if (q !== undefined && q.length > MAX_Q) throw invalidParameter("q", `q must be at most ${MAX_Q} characters`);
  const path = one("path");
  if (path !== undefined && (path.length > 300 || !path.startsWith("/")))
    throw invalidParameter("path", "path must start with / and be at most 300 characters");
  const method = one("method")?.toUpperCase();
  if (method !== undefined && !METHODS.includes(method)) throw invalidParameter("method", `method must be one of ${METHODS.join(", ")}`);
  const service = one("service");
  if (service !== undefined && !/^[a-z0-9][a-z0-9-]{0,63}$/.test(service)) throw invalidParameter("service", "service must be a service slug from /services");
  const pageRaw = one("page");
  let page = 1;
  if (pageRaw !== undefined) {
    if (!/^\d{1,6}$/.test(pageRaw) || Number(pageRaw) < 1) throw invalidParameter("page", "page must be a whole number from 1");
    page = Number(pageRaw);
  }
  return { q: q?.trim() || undefined, path, method, service, page };
}

function schemaOf(s: z.ZodType, io: "input" | "output" = "output"): Record<string, unknown> {
  const { $schema: _drop, ...rest } = z.toJSONSchema(s, { io, unrepresentable: "any", target: "draft-2020-12" }) as Record<string, unknown>;
  return rest;
}

function isOptional(s: z.ZodType): boolean {
  return s.safeParse(undefined).success;
}

/** OpenAPI parameter objects of an operation (path and query), from its contract: what the MCP tool input schema is built from too. */
export function parametersOf(op: DiscoverableOperation): unknown[] {
  const c = op.contract;
  if (!c) return Array.isArray(op.storedParameters) ? op.storedParameters : [];
  const out: unknown[] = [];
  for (const [where, obj] of [
    ["path", c.pathParams],
    ["query", c.query],
  ] as const) {
    if (!obj) continue;
    for (const [name, s] of Object.entries(obj.shape) as [string, z.ZodType][]) {
      const schema = schemaOf(s);
      const description = schema.description;
      delete schema.description;
      out.push({
        name,
        in: where,
        required: where === "path" ? true : !isOptional(s),
        ...(description ? { description } : {}),
        schema,
      });
    }
  }
  return out;
}

function searchText(op: DiscoverableOperation): string {
  const c = op.contract;
  const params = [c?.pathParams, c?.query]
    .filter(Boolean)
    .flatMap((o) =>
      Object.entries(o!.shape).map(
        ([n, s]) => `${n} ${(z.toJSONSchema(s as z.ZodType, { io: "output", unrepresentable: "any" }) as { description?: string }).description ?? ""}`,
      ),
    );
  return params.join(" ");
}

/** Rank and filter; returns the matching operations in order. */
export function selectOperations(all: DiscoverableOperation[], f: Omit<OpenApiFilters, "page">): { op: DiscoverableOperation; score?: number }[] {
  let ops = all;
  if (f.service) ops = ops.filter((o) => o.service.slug === f.service);
  if (f.method) ops = ops.filter((o) => o.method === f.method);
  if (f.path) ops = ops.filter((o) => pathMatches(o.path, f.path!));
  if (!f.q) return ops.map((op) => ({ op }));
  const ranked = rankDocuments(
    f.q,
    ops.map((o) => ({
      id: `${o.method} ${o.path}`,
      fields: [
        { text: o.path.replace(/[{}]/g, " "), weight: 3 },
        { text: o.summary, weight: 3 },
        { text: (o.contract?.keywords ?? []).join(" "), weight: 2 },
        { text: `${o.service.slug} ${o.service.title}`, weight: 1.5 },
        { text: o.description, weight: 1 },
        { text: searchText(o), weight: 1 },
      ],
    })),
  );
  const byId = new Map(ops.map((o) => [`${o.method} ${o.path}`, o]));
  return ranked.map((r) => ({ op: byId.get(r.id)!, score: r.score }));
}

const errorRef = (description: string) => ({ description, content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } } });

/** The plans on sale now (the manifest's, as the purchase and top-up operations take them): a plan change shows on the next call. */
function plansOnSale(catalog: Catalog) {
  return catalog.plans.filter((p) => p.kind === "credit").map((p) => ({ id: p.id, slug: p.slug, name: p.name, meters: p.meterKeys, ...planPurchaseTerms(p) }));
}

const PLAN_OPERATIONS = new Set(["plan_purchase", "plan_extend"]);

/** The operation's parameters, each with its value in the operation's example call (which answers offline) as `example`. */
function parametersWithExamples(op: DiscoverableOperation): unknown[] {
  const values = exampleArguments(op);
  return (parametersOf(op) as { name: string; example?: unknown }[]).map((p) =>
    values[p.name] !== undefined && p.example === undefined ? { ...p, example: values[p.name] } : p,
  );
}

function paymentResponses(op: DiscoverableOperation): Record<string, unknown> {
  const rails = railsFor(op);
  if (!op.meter || op.meter.priceMicros === 0n)
    return {
      "402": {
        description: `Without a wallet proof: a $0 offer to sign on ${rails.map((r) => r.name).join(" or ")} (the same shapes as a priced 402); nothing is charged. A proof that does not verify: identity_invalid (\`reason\`), with a fresh $0 offer`,
        content: { "application/json": { schema: { $ref: "#/components/schemas/PaymentRequired" } } },
      },
    };
  return {
    "402": {
      description:
        `Payment required: one signed challenge, offered on every rail that takes this price (${rails.map((r) => r.howToPay).join("; ")}). ` +
        "A refused proof is a 402 with a fresh challenge too: payment_required with `reason`, or settlement_failed with `settlementReason` " +
        "(insufficient_funds, ...); a plan whose credit ran out: usage_exhausted",
      content: { "application/json": { schema: { $ref: "#/components/schemas/PaymentRequired" } } },
    },
    "401": errorRef("invalid_token (`reason` says which) for an agent credential that does not verify"),
    "409": errorRef("payment_request_mismatch, signing_secret_required, terminal payment states"),
    "429": errorRef("rate_limit_exceeded (see retry_after)"),
  };
}

function operationObject(op: DiscoverableOperation, score: number | undefined, plans: ReturnType<typeof plansOnSale>) {
  const c = op.contract;
  // What takes payment carries its price and a 402 (a priced call, and the $0 quote's wallet proof); a free one neither.
  const info = paymentInfo(op);
  const responses: Record<string, unknown> = {
    "200": { description: "OK", content: { "application/json": { schema: c ? schemaOf(c.response) : {} } } },
    "400": errorRef("Bad request: `error` is invalid_request and `parameter` names the parameter"),
    ...(info ? paymentResponses(op) : {}),
  };
  if (op.path.includes("{")) responses["404"] = errorRef("Not found (unknown ticker, feed, plan, ...)");
  const body = c?.body
    ? {
        requestBody: {
          required: true,
          content: { [op.key === "oauth_token" ? "application/x-www-form-urlencoded" : "application/json"]: { schema: schemaOf(c.body, "input") } },
        },
      }
    : {};
  const description = [op.description, op.coverage ? `Coverage: ${op.coverage.summary}` : ""].filter(Boolean).join(" ");
  return {
    operationId: op.key,
    summary: op.summary,
    ...(description ? { description } : {}),
    tags: [op.service.slug],
    parameters: parametersWithExamples(op),
    ...body,
    responses,
    ...(info ? { security: railsFor(op).map((r) => ({ [r.name]: [] })) } : {}),
    ...(info ? { "x-payment-info": info } : {}),
    "x-service": op.service.slug,
    ...(op.coverage ? { "x-coverage": op.coverage } : {}),
    ...(op.examples ? { "x-example": op.examples } : {}),
    ...(PLAN_OPERATIONS.has(op.key) ? { "x-plans": plans } : {}),
    ...(score !== undefined ? { "x-search-score": score } : {}),
  };
}

/**
 * The first line of `info.description`: which page this is and where the next one is, in words, for the generic OpenAPI
 * tool or model that reads only the document it was given (the same facts are in `info.x-*` and the `Link` header).
 */
function pagingNote(p: { page: number; pages: number; total: number; what: string; nextUrl: string | null }): string {
  if (p.pages === 1) return `All ${p.total} ${p.what} are in this document.`;
  const first = (p.page - 1) * PAGE_SIZE + 1;
  const last = Math.min(p.page * PAGE_SIZE, p.total);
  return (
    `This document is page ${p.page} of ${p.pages}: ${p.what} ${first} to ${last} of ${p.total}, at most ${PAGE_SIZE} a page. ` +
    (p.nextUrl ? `The next page is ${p.nextUrl} (also info.x-next and the Link header, rel="next"); ` : "This is the last page; ") +
    "read every page to see every operation, or narrow the document with ?q=, ?service=, ?path= or ?method=."
  );
}

function describeSelection(f: OpenApiFilters, restrictService: string | undefined): string {
  if (f.q || f.path || f.method || (f.service && !restrictService)) return "operations matching the filters";
  return restrictService ? `operations of service ${restrictService}` : "operations of this storefront";
}

function pageUrl(base: string, params: URLSearchParams, page: number): string {
  const next = new URLSearchParams(params);
  next.set("page", String(page));
  return `${base}?${next.toString()}`;
}

export type OpenApiResult = { document: Record<string, unknown>; nextUrl: string | null; prevUrl: string | null };

export function buildOpenApi(catalog: Catalog, opts: { origin: string; selfPath: string; params: URLSearchParams; restrictService?: string }): OpenApiResult {
  const filters = parseOpenApiFilters(opts.params);
  const all = listDiscoverable(catalog);
  const knownServices = new Set([...catalog.services.filter((s) => s.status === "live").map((s) => s.slug), PLATFORM_SERVICE.slug]);
  const service = opts.restrictService ?? filters.service;
  if (opts.restrictService && filters.service && filters.service !== opts.restrictService)
    throw invalidParameter("service", `this document is restricted to service ${opts.restrictService}`);
  if (service && !knownServices.has(service)) throw new AppError("service_not_found", { detail: `no service "${service}"; see /services` });

  const selected = selectOperations(all, { ...filters, service });
  const total = selected.length;
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
  if (filters.page > pages) throw invalidParameter("page", `page ${filters.page} is past the last page (${pages})`);
  const slice = selected.slice((filters.page - 1) * PAGE_SIZE, filters.page * PAGE_SIZE);

  const paths: Record<string, Record<string, unknown>> = {};
  const plans = plansOnSale(catalog);
  for (const { op, score } of slice) {
    (paths[op.path] ??= {})[op.method.toLowerCase()] = operationObject(op, score, plans);
  }
  const base = `${opts.origin}${opts.selfPath}`;
  const nextUrl = filters.page < pages ? pageUrl(base, opts.params, filters.page + 1) : null;
  const prevUrl = filters.page > 1 ? pageUrl(base, opts.params, filters.page - 1) : null;
  const tags = [...new Set(slice.map((s) => s.op.service.slug))].map((slug) => {
    const s = catalog.services.find((x) => x.slug === slug);
    return { name: slug, description: s ? `${s.title}. ${s.description}` : PLATFORM_SERVICE.description };
  });

  const document = {
    openapi: "3.1.0",
    info: {
      title: `${catalog.seller.name} API`,
      version: "1.0.0",
      description:
        `${pagingNote({ page: filters.page, pages, total, what: describeSelection(filters, opts.restrictService), nextUrl })} ` +
        "Pay-per-request market and economic data for agents. An unpaid call to a priced operation answers 402 with one signed " +
        `challenge offered on every payment rail this storefront takes (${RAILS.map((r) => r.name).join(", ")}); pay it on one rail and retry ` +
        `the same request. ${RAILS.map((r) => r.howToPay).join(". ")}. A request carries exactly one payment proof. ` +
        "Only a 2xx or 3xx answer is charged: on a 4xx or 5xx the upstream's status and body pass through uncharged, and `svc-billing` " +
        "says so (`status=released; charged_usd=0.000000; reason=upstream_rejected|upstream_error; upstream_status=...`). " +
        "Lost an answer? Retry the same request with the same proof within 24 hours: it is served again, never charged again " +
        "(`svc-billing: ...; replay=true`; plan credit: send an Idempotency-Key). " +
        "Prices: /manifest.json (authoritative). Errors are JSON {error, reason?, detail?}.",
      "x-page": filters.page,
      "x-pages": pages,
      "x-page-size": PAGE_SIZE,
      "x-total-operations": total,
      ...(nextUrl ? { "x-next": nextUrl } : {}),
      ...(prevUrl ? { "x-prev": prevUrl } : {}),
    },
    // The MPP discovery draft's service block: where an MPP crawler finds the docs beside this document.
    "x-service-info": { docs: { apiReference: `${opts.origin}/openapi.json`, llms: `${opts.origin}/llms.txt` } },
    servers: [{ url: opts.origin }],
    tags,
    paths,
    components: {
      schemas: {
        Error: {
          type: "object",
          required: ["error"],
          properties: {
            error: { type: "string", description: "Machine-readable code (see README: Errors)." },
            reason: { type: "string" },
            detail: { type: "string", description: "A note for humans." },
          },
          additionalProperties: true,
        },
        PaymentRequired: {
          type: "object",
          required: ["error"],
          properties: {
            error: {
              enum: ["payment_required", "settlement_failed", "usage_exhausted", "identity_invalid"],
              description:
                "payment_required: unpaid, or a refused proof (`reason` says why); settlement_failed: the signed money did not move (`settlementReason`); usage_exhausted: the plan's credit ran out; identity_invalid: the $0 wallet proof did not verify. Every one but a settlement that failed after the call was served carries `payment` and the fresh offers.",
            },
            reason: { type: "string" },
            settlementReason: { type: "string" },
            payment: {
              type: "object",
              required: ["id", "amount", "currency"],
              properties: { id: { type: "string" }, amount: { type: "string" }, currency: { type: "string" }, expires_at: { type: "string" } },
            },
            card: { type: "object", properties: { payUrl: { type: "string" }, statusUrl: { type: "string" } } },
            x402Version: { type: "integer" },
            accepts: { type: "array", items: { type: "object" } },
          },
          additionalProperties: true,
        },
      },
      securitySchemes: {
        ...Object.fromEntries(RAILS.map((r) => [r.name, r.securityScheme])),
        agentBearer: {
          type: "http",
          scheme: "bearer",
          bearerFormat: "JWT",
          description: "Agent access token from /oauth2/token (SVC-Agent-Authorization on MPP).",
        },
      },
    },
  };
  return { document, nextUrl, prevUrl };
}

export function linkHeader(r: OpenApiResult): string | undefined {
  const parts = [r.nextUrl ? `<${r.nextUrl}>; rel="next"` : null, r.prevUrl ? `<${r.prevUrl}>; rel="prev"` : null].filter(Boolean);
  return parts.length ? parts.join(", ") : undefined;
}
