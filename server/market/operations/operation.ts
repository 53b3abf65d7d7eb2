// What a data operation is: everything the storefront says and does about one sold dataset, in one object its folder
// exports. The catalog rows, the upstream's routes, OpenAPI, the MCP tool, the guide, llms.txt, the manifest's meter and
// default price, the archive's feed and the console's archive coverage are all derived from these objects (through the
// registry, ./index.ts); nothing else names an operation. How to add one: docs/operations.md.
import type { z } from "zod";
import type { OperationContract } from "../../contracts/operations";
import { AppError } from "../../errors";
import type { FeedDef } from "../archive/feed";
import type { Clock } from "../lib/envelope";
import type { MarketProviders, ProviderKind } from "../providers/types";
import type { ServiceSlug } from "./services";

/** What a run gets besides its parameters. */
export type OperationContext = {
  /** The providers MARKET_PROVIDER selected: the shared bars, and `family(f)` for the operation's own source. */
  providers: MarketProviders;
  now: Clock;
  /** The public origin the agent called, for absolute links (a backtest's artifact.url). */
  origin: string;
  /** Every archived feed (the registry's): what the archive's read operations answer about. */
  feeds: readonly FeedDef[];
};

/**
 * What an operation holds here, stated before anyone pays (OpenAPI's description and `x-coverage`, the MCP tool), so an
 * agent never pays to learn that a ticker, a series or a range is missing.
 */
export type OperationCoverage = {
  /** One or two sentences: what is held, and what answers `not_included` or `unknown_ticker`. */
  summary: string;
  /** What it holds item by item (tickers, series, feeds) with the days each covers, when the list is fixed. */
  entities?: { name: string; first_date?: string; last_date?: string }[];
};

/** A call's parameters as an agent writes them (strings), path and query. */
export type OperationExample = { path?: Record<string, string>; query?: Record<string, string> };

type ParamsOf<S> = S extends z.ZodType ? z.output<S> : Record<string, never>;

/** The operation as its folder writes it; `defineOperation` checks the parameter and response types against the contract. */
export type OperationSpec<C extends OperationContract = OperationContract> = {
  /** Method, paths, summary, description, keywords and zod schemas: the folder's contract.ts. */
  contract: C;
  /** The catalog service it is listed under (./services.ts). */
  service: ServiceSlug;
  /** The meter it is charged on, with the price a new storefront starts at (the seller changes it in the console). */
  meter: { key: string; title: string; priceMicros: bigint; includedUnits?: number };
  /** The envelope's `source` on every answer: the data's origin (SERVICE.md part 1). */
  source: string;
  /** The guide's text for it: a goal an agent would type, for which the guide recommends this operation. */
  goal: string;
  /**
   * Parameters of a call that answers 200 offline (what the conformance battery pays for). `feeds` are archived feeds
   * holding a captured day, for the operations that read the archive.
   */
  example(ctx: { feeds: readonly FeedDef[] }): OperationExample;
  /**
   * Optional: a call the offline data does not hold (a 403 `not_included` or a 404, never charged), stated beside the
   * example in OpenAPI (`x-example.refusal`) so an agent sees what a refusal looks like, and paid for by the paid e2e spec
   * to show nothing is charged.
   */
  refusal?(ctx: { feeds: readonly FeedDef[] }): OperationExample;
  /** What it holds with providers of this kind (never throws; read per discovery document). */
  coverage(kind: ProviderKind, ctx: { feeds: readonly FeedDef[] }): OperationCoverage;
  /** The answer to a call whose parameters the contract has validated. Errors are AppErrors (4xx for the caller's part). */
  run(params: { path: ParamsOf<C["pathParams"]>; query: ParamsOf<C["query"]> }, ctx: OperationContext): Promise<z.output<C["response"]>>;
  /** Archived once per UTC day, as a feed named after the operation, when present. */
  feed?: Omit<FeedDef, "feed">;
  /**
   * Holds nothing offline (no data with a usable licence can be shipped): with the embedded providers every call is
   * refused with `liveOnlyRefusal` before any payment is asked (the gateway checks it right after the parameters), its
   * coverage says so, and its `example` is a call that answers 200 live (the battery asserts the uncharged refusal offline).
   */
  liveOnly?: boolean;
};

export type DataOperation = OperationSpec & { key: string };

/** An operation folder's export: its spec, typed against its own contract, keyed by the contract's key. */
export function defineOperation<C extends OperationContract>(spec: OperationSpec<C>): DataOperation {
  return { key: spec.contract.key, ...(spec as unknown as OperationSpec) };
}

/** The refusal of a live-only operation's call when this instance runs offline: 403 not_included, reason live_only. */
export function liveOnlyRefusal(op: { key: string; contract: { path: string } }): AppError {
  return new AppError("not_included", {
    reason: "live_only",
    detail: `${op.contract.path} is live-only: no data for it is held offline (MARKET_PROVIDER=embedded); nothing was charged`,
    extra: { operation: op.key },
  });
}
