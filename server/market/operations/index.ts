// The operations registry: the only module that imports the list of operation folders (./registry.ts). Everything that
// lists data operations asks it: the catalog seed (services, meters, default prices, plans' meters), the upstream's
// routes, the gateway's parameter validation and discovery (contracts, coverage), the archive (feeds) and the console.
// Lists are read at call time, so an operation a test registers (server/testing/operations.ts) is seen everywhere.
import { ADVISOR_CONTRACTS, type OperationContract } from "../../contracts/operations";
import type { FeedDef } from "../archive/feed";
import type { ProviderKind } from "../providers/types";
import type { AppError } from "../../errors";
import { getMarketProviders } from "../providers/get-market-providers";
import { liveOnlyRefusal, type DataOperation, type OperationCoverage, type OperationExample } from "./operation";
import { registered } from "./registered";
import * as registry from "./registry";
import { SERVICES, type Service } from "./services";

/** Why `op` cannot join `list` (a duplicate key, path or feed, an unknown service, one meter at two prices), or null. */
export function registrationProblem(op: DataOperation, list: readonly DataOperation[]): string | null {
  if (!SERVICES.some((s) => s.slug === op.service)) return `operation ${op.key} names no service in services.ts (${op.service})`;
  for (const o of list) {
    if (o.key === op.key) return `two operations are keyed ${op.key}`;
    if (o.contract.path === op.contract.path && o.contract.method === op.contract.method) return `${op.key} and ${o.key} share ${op.contract.path}`;
    if (o.contract.upstreamPath === op.contract.upstreamPath) return `${op.key} and ${o.key} share the upstream path ${op.contract.upstreamPath}`;
    if (o.meter.key === op.meter.key && (o.meter.priceMicros !== op.meter.priceMicros || o.meter.title !== op.meter.title))
      return `${op.key} and ${o.key} share meter ${op.meter.key} at different titles or prices`;
  }
  return null;
}

// Sorted here rather than trusted to the module namespace's order, which bundlers need not keep.
for (const op of Object.values(registry).sort((a, b) => (a.key < b.key ? -1 : 1))) {
  const problem = registrationProblem(op, registered);
  if (problem) throw new Error(`operations registry: ${problem}`);
  registered.push(op);
}

/** Every data operation, in registry order (sorted by key). */
export const OPERATIONS: readonly DataOperation[] = registered;

export function getOperation(key: string): DataOperation | undefined {
  return OPERATIONS.find((o) => o.key === key);
}

/** The contract of a catalog operation: a data operation's, else an advisor operation's; undefined for a seller's own. */
export function getContract(key: string): OperationContract | undefined {
  return getOperation(key)?.contract ?? ADVISOR_CONTRACTS[key];
}

/** The services that sell at least one operation, in catalog order, each with its operations in registry order. */
export function operationsByService(): { service: Service; operations: DataOperation[] }[] {
  return SERVICES.map((service) => ({ service, operations: OPERATIONS.filter((o) => o.service === service.slug) })).filter((s) => s.operations.length);
}

/** Every operation in catalog order (by service, then registry order). */
export function operationsInCatalogOrder(): DataOperation[] {
  return operationsByService().flatMap((s) => s.operations);
}

/** The archived feeds: one per operation that declares one, named after it. */
export function archiveFeeds(): FeedDef[] {
  return OPERATIONS.flatMap((o) => (o.feed ? [{ feed: o.key, ...o.feed }] : []));
}

/** What `key` holds with providers of `kind`; null for an operation that is not a data operation (or whose coverage failed). */
export function operationCoverage(key: string, kind: ProviderKind): OperationCoverage | null {
  const op = getOperation(key);
  if (!op) return null;
  try {
    return op.coverage(kind, { feeds: archiveFeeds() });
  } catch {
    // A data file that cannot be read is the operation's 403 to give, not discovery's 500.
    return null;
  }
}

/** A call as an agent writes it: the path with its parameters filled in, then the query (the example's values). */
export function exampleRequest(contract: OperationContract, example: OperationExample): string {
  const values: Record<string, string> = { ...example.path, ...example.query };
  const pathNames = new Set(Object.keys(contract.pathParams?.shape ?? {}));
  const path = contract.path.replace(/\{([a-zA-Z_][a-zA-Z0-9_]*)\}/g, (_m, name: string) => encodeURIComponent(values[name] ?? ""));
  const query = new URLSearchParams(Object.entries(values).filter(([k]) => !pathNames.has(k)));
  return query.size ? `${path}?${query}` : path;
}

/**
 * `key`'s example call (answers 200 offline) and, where it declares one, a call the offline data refuses (403/404,
 * never charged), as OpenAPI's `x-example` states them; null for an operation that is not a data operation.
 */
export function operationExamples(key: string): { request: string; refusal?: string } | null {
  const op = getOperation(key);
  if (!op) return null;
  try {
    const ctx = { feeds: archiveFeeds() };
    const refusal = op.refusal?.(ctx);
    return { request: exampleRequest(op.contract, op.example(ctx)), ...(refusal ? { refusal: exampleRequest(op.contract, refusal) } : {}) };
  } catch {
    // A data file that cannot be read is the operation's 403 to give, not discovery's 500 (as for coverage).
    return null;
  }
}

/**
 * What every data operation holds, offline and live, in catalog order (the console's coverage page): the same coverage
 * discovery states, for both provider kinds whichever this instance runs. Null where an operation's coverage failed.
 */
export function coverageOfOperations(): {
  key: string;
  method: string;
  path: string;
  summary: string;
  service: string;
  embedded: OperationCoverage | null;
  live: OperationCoverage | null;
}[] {
  return operationsInCatalogOrder().map((op) => ({
    key: op.key,
    method: op.contract.method,
    path: op.contract.path,
    summary: op.contract.summary,
    service: op.service,
    embedded: operationCoverage(op.key, "embedded"),
    live: operationCoverage(op.key, "live"),
  }));
}

/**
 * The refusal a call to `key` gets before any payment is asked, or null: a live-only operation while this instance's
 * providers are the embedded ones, when the service's upstream is this app's own (`upstreamUrl` a path: another
 * deployment's upstream has providers of its own).
 */
export function refusalBeforePayment(key: string, upstreamUrl: string): AppError | null {
  const op = getOperation(key);
  if (!op?.liveOnly || !upstreamUrl.startsWith("/") || getMarketProviders().kind !== "embedded") return null;
  return liveOnlyRefusal(op);
}

// An upstream path template compiled once per operation object: `{name}` captures one path segment.
const upstreamMatchers = new WeakMap<DataOperation, { regex: RegExp; names: string[] }>();
function upstreamMatcher(op: DataOperation): { regex: RegExp; names: string[] } {
  let m = upstreamMatchers.get(op);
  if (!m) {
    const names: string[] = [];
    const pattern = op.contract.upstreamPath
      .split("/")
      .map((seg) => {
        const p = /^\{([a-zA-Z_][a-zA-Z0-9_]*)\}$/.exec(seg);
        if (!p) return seg.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
        names.push(p[1]!);
        return "([^/]+)";
      })
      .join("/");
    m = { regex: new RegExp(`^${pattern}$`), names };
    upstreamMatchers.set(op, m);
  }
  return m;
}

function decodeSegment(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** The operation at a path below the upstream's prefix, with its path parameters (decoded), or null. */
export function matchUpstreamPath(subPath: string): { op: DataOperation; pathParams: Record<string, string> } | null {
  for (const op of OPERATIONS) {
    const { regex, names } = upstreamMatcher(op);
    const m = regex.exec(subPath);
    if (!m) continue;
    return { op, pathParams: Object.fromEntries(names.map((n, i) => [n, decodeSegment(m[i + 1]!)])) };
  }
  return null;
}
