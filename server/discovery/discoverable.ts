// Every operation a storefront describes: its sold catalog operations (data and advisor) plus the free
// platform operations. Discovery (OpenAPI, search, guide, services) works on this one list. A catalog operation gets its
// contract and what it covers from the operations registry (server/market/operations), by key.
import type { Catalog } from "../catalog/catalog";
import type { OperationContract } from "../contracts/operations";
import { PLATFORM_CONTRACTS, PLATFORM_SERVICE } from "../contracts/platform";
import { getContract, operationCoverage, operationExamples, refusalBeforePayment } from "../market/operations";
import type { OperationCoverage } from "../market/operations/operation";
import { getMarketProviders } from "../market/providers/get-market-providers";

export type DiscoverableOperation = {
  key: string;
  method: string;
  path: string;
  summary: string;
  description: string;
  service: { slug: string; title: string };
  /** The catalog's kind (`data`: sold through the gateway, `advisor`), or `platform` for the free platform operations. */
  kind: string;
  /** null for platform operations (never metered). */
  meter: { key: string; priceMicros: bigint; includedUnits: number } | null;
  contract: OperationContract | undefined;
  /** What a data operation holds with the providers this instance runs (stated before anyone pays); null otherwise. */
  coverage: OperationCoverage | null;
  /** A data operation's example call (answers 200 offline) and refused call (never charged), if it declares one; null otherwise. */
  examples: { request: string; refusal?: string } | null;
  /** JSON Schema parameters stored on catalog operations without a built-in contract. */
  storedParameters: unknown;
  /** This instance refuses every call before any payment (a live-only operation on offline providers): no 402 to find. */
  refusedBeforePayment?: boolean;
};

export function listDiscoverable(catalog: Catalog): DiscoverableOperation[] {
  const kind = getMarketProviders().kind;
  const sold: DiscoverableOperation[] = catalog.operations
    .filter((o) => o.service.status === "live")
    .map((o) => ({
      key: o.key,
      method: o.method,
      path: o.pathTemplate,
      summary: o.summary,
      description: o.description,
      service: { slug: o.service.slug, title: o.service.title },
      kind: o.kind,
      meter: o.meter ? { key: o.meter.key, priceMicros: o.meter.priceMicros ?? 0n, includedUnits: o.meter.includedUnits } : null,
      contract: getContract(o.key),
      coverage: operationCoverage(o.key, kind),
      examples: operationExamples(o.key),
      storedParameters: o.parameters,
      refusedBeforePayment: refusalBeforePayment(o.key, o.service.upstreamUrl) !== null,
    }));
  const platform: DiscoverableOperation[] = PLATFORM_CONTRACTS.map((c) => ({
    key: c.key,
    method: c.method,
    path: c.path,
    summary: c.summary,
    description: c.description,
    service: { slug: PLATFORM_SERVICE.slug, title: PLATFORM_SERVICE.title },
    kind: "platform",
    meter: null,
    contract: c,
    coverage: null,
    examples: null,
    storedParameters: [],
  }));
  return [...sold, ...platform];
}

/** Does a concrete request path (or a template) address this operation's path template? */
export function pathMatches(template: string, candidate: string): boolean {
  if (candidate === template) return true;
  const re = new RegExp(
    `^${template
      .replace(/[.*+?^$()|[\]\\]/g, "\\$&")
      .replace(/\\?\{[^}]+\\?\}/g, "[^/]+")
      .replace(/\{[^}]+\}/g, "[^/]+")}$`,
  );
  if (re.test(candidate)) return true;
  // A prefix such as /api/v1/archive selects the archive operations.
  const prefix = candidate.endsWith("/") ? candidate : `${candidate}/`;
  return template.startsWith(prefix);
}

/**
 * The argument values of an operation's example call, by parameter name (path parameters read against its template,
 * then the query): what OpenAPI gives as each parameter's `example`, so a tool that fills a template from examples
 * (mppx validate, Swagger UI) calls a URL that answers. Empty without an example.
 */
export function exampleArguments(op: Pick<DiscoverableOperation, "path" | "examples">): Record<string, string> {
  if (!op.examples) return {};
  const url = new URL(op.examples.request, "http://example.invalid");
  const values: Record<string, string> = Object.fromEntries(url.searchParams);
  const segments = url.pathname.split("/");
  op.path.split("/").forEach((part, i) => {
    const name = /^\{(.+)\}$/.exec(part)?.[1];
    if (name && segments[i] !== undefined) values[name] = decodeURIComponent(segments[i]);
  });
  return values;
}
