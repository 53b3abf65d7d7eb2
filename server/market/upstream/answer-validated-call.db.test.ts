// The gateway's in-process call to the market upstream (`answerValidatedCall`) answers exactly what the signed request
// answers: for every registered operation's example call and its refusal, the same status, headers and bytes, or the
// same error. It declines (null: the caller sends the signed request) whatever it cannot vouch for unsigned.
import { describe, expect, it } from "vitest";
import { TEST_ENV } from "../../../scripts/test/test-env";
import { inProcess, inProcessFailure } from "../../http/route";
import { signedRequest, UPSTREAM_ORIGIN } from "../../testing/signed-request";
import { parseQuery, parseWith } from "../../validation";
import { archiveFeeds, matchUpstreamPath, OPERATIONS } from "../operations";
import type { OperationExample } from "../operations/operation";
import { answerValidatedCall, handleMarketUpstream, MARKET_UPSTREAM_PREFIX, type ValidatedCall } from "./handle-market-upstream";

const FORWARDED = { "x-forwarded-host": "shop.example", "x-forwarded-proto": "https", "x-request-id": "req-validated-call" };
const STARTED = Date.now();

/**
 * An answer with what each run makes afresh written as placeholders: the moments of this run (`as_of` is when it
 * answered) as NOW, a new artifact's id (a backtest's chart) as ART. The data's own dates and values stay.
 */
function atAnyMoment(a: { status: number; headers: readonly [string, string][]; text: string }) {
  const text = a.text
    .replace(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z/g, (t) => (Date.parse(t) >= STARTED - 1_000 ? "NOW" : t))
    .replace(/art_[0-9a-z]{16}/g, "ART");
  return { ...a, text };
}

/** The upstream path and query of an example call, as the gateway forwards it. */
function upstreamTarget(upstreamPath: string, e: OperationExample): string {
  const path = upstreamPath.replace(/\{([a-zA-Z_][a-zA-Z0-9_]*)\}/g, (_m, name: string) => encodeURIComponent(e.path?.[name] ?? ""));
  const query = new URLSearchParams(e.query ?? {});
  return query.size ? `${path}?${query}` : path;
}

/** The call as the gateway validated it: its contract's parse of the same path segments and query. */
function validated(target: string, opts: { secret?: string; method?: string } = {}): ValidatedCall {
  const url = new URL(`${UPSTREAM_ORIGIN}${MARKET_UPSTREAM_PREFIX}${target}`);
  const m = matchUpstreamPath(url.pathname.slice(MARKET_UPSTREAM_PREFIX.length))!;
  const { contract } = m.op;
  return {
    method: opts.method ?? "GET",
    url,
    signingSecret: opts.secret ?? TEST_ENV.MARKET_UPSTREAM_SECRET,
    origin: "https://shop.example",
    parameters: {
      contract,
      pathParams: m.pathParams,
      path: contract.pathParams ? parseWith(contract.pathParams, m.pathParams) : {},
      query: contract.query ? parseQuery(contract.query, url.searchParams) : {},
    },
  };
}

/** What each way answers: status, headers and text. */
async function bothWays(target: string) {
  const res = await inProcess(handleMarketUpstream)(signedRequest(target, { headers: FORWARDED }));
  const signed = atAnyMoment({ status: res.status, headers: [...res.headers], text: await res.text() });
  const call = validated(target);
  let direct;
  try {
    direct = await answerValidatedCall(call);
  } catch (err) {
    const failed = inProcessFailure(err, { method: "GET", url: call.url.href, headers: new Headers({ "x-request-id": FORWARDED["x-request-id"] }) });
    direct = { status: failed.status, headers: [...failed.headers], text: await failed.text() };
  }
  return { signed, direct: direct && atAnyMoment(direct) };
}

const calls = OPERATIONS.flatMap((op) => {
  const ctx = { feeds: archiveFeeds() };
  const refusal = op.refusal?.(ctx);
  return [
    { name: `${op.key}: its example`, target: upstreamTarget(op.contract.upstreamPath, op.example(ctx)) },
    ...(refusal ? [{ name: `${op.key}: its refusal`, target: upstreamTarget(op.contract.upstreamPath, refusal) }] : []),
  ];
});

describe("answerValidatedCall answers what the signed request answers", () => {
  it.each(calls)("$name", async ({ target }) => {
    const { signed, direct } = await bothWays(target);
    expect(direct).toEqual(signed);
  });

  it("covers answers and refusals both", () => {
    expect(calls.length).toBeGreaterThan(OPERATIONS.length);
  });
});

describe("answerValidatedCall declines what it cannot vouch for unsigned", () => {
  const target = upstreamTarget(OPERATIONS[0]!.contract.upstreamPath, OPERATIONS[0]!.example({ feeds: archiveFeeds() }));

  it("another seller's secret, another method", async () => {
    expect(await answerValidatedCall(validated(target, { secret: "another-sellers-secret-0123456789" }))).toBeNull();
    expect(await answerValidatedCall(validated(target, { secret: TEST_ENV.MARKET_UPSTREAM_SECRET.slice(1) }))).toBeNull();
    expect(await answerValidatedCall(validated(target, { method: "POST" }))).toBeNull();
  });

  it("parameters parsed by another operation's contract, or from other path segments", async () => {
    const call = validated(target);
    const other = OPERATIONS.find((o) => o.contract !== call.parameters.contract)!;
    expect(await answerValidatedCall({ ...call, parameters: { ...call.parameters, contract: other.contract } })).toBeNull();
    const segments = Object.keys(call.parameters.pathParams);
    if (segments.length)
      expect(
        await answerValidatedCall({ ...call, parameters: { ...call.parameters, pathParams: { ...call.parameters.pathParams, [segments[0]!]: "OTHER" } } }),
      ).toBeNull();
    expect(await answerValidatedCall({ ...call, parameters: { ...call.parameters, pathParams: { ...call.parameters.pathParams, extra: "x" } } })).toBeNull();
  });
});
