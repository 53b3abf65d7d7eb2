// The options chain's live source (Massive's /v3/snapshot/options/{underlyingAsset}) against the recorded replies of
// data/recorded/massive replayed by a local server: the vendor's one-contract example mapped field by field, the
// filters passed in Massive's names, and the not-entitled 403 as 403 not_included with the key never shown; offline, the
// upstream's own guard answers live_only.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { embeddedProviders } from "../../providers/embedded";
import { liveProviders } from "../../providers/live";
import { recorded, startRouteReplay, type RouteReplay } from "../../test/route-replay";
import { optionsChainQuery, optionsChainResponse } from "./contract";
import { getOptionsChain } from "./get-options-chain";

const KEY = "test-massive-key-secret";
let replay: RouteReplay;
beforeAll(async () => {
  replay = await startRouteReplay(({ url }) => {
    if (url.pathname === "/v3/snapshot/options/AAPL") return { status: 200, body: recorded("recorded/massive/v3-snapshot-options-AAPL.json") };
    if (url.pathname === "/v3/snapshot/options/SPY") return { status: 403, body: recorded("recorded/massive/error-not-entitled.json") };
    return undefined;
  });
});
afterAll(() => replay.close());

const providers = () =>
  liveProviders({
    massiveBaseUrl: replay.base,
    massiveApiKey: KEY,
    treasuryBaseUrl: replay.base,
    hyperliquidBaseUrl: replay.base,
    timeoutMs: 500,
    retries: 0,
    backoffMs: 5,
  });
const now = () => new Date("2026-01-01T00:00:00Z");

describe("massive options snapshot", () => {
  it("passes the filters in Massive's names and maps the vendor's recorded example field by field", async () => {
    const q = optionsChainQuery.parse({ contract_type: "call", expiration_from: "2023-06-01", strike_min: "100", strike_max: "200", limit: "10" });
    const a = optionsChainResponse.parse(await getOptionsChain("AAPL", q, { providers: providers(), now }));
    const asked = replay.seen.at(-1)!.url.searchParams;
    expect(Object.fromEntries(asked)).toEqual({
      sort: "expiration_date",
      order: "asc",
      limit: "10",
      contract_type: "call",
      "expiration_date.gte": "2023-06-01",
      "strike_price.gte": "100",
      "strike_price.lte": "200",
      apiKey: KEY,
    });
    expect(a).toMatchObject({ source: "massive", ticker: "AAPL", count: 1, has_more: false, as_of: "2026-01-01T00:00:00.000Z" });
    expect(a.underlying).toEqual({ price: 159.9606, last_updated: "2022-04-29T17:44:23.172Z", timeframe: "REAL-TIME" });
    expect(a.contracts[0]).toEqual({
      contract: "O:AAPL230616C00150000",
      contract_type: "call",
      exercise_style: "american",
      expiration_date: "2023-06-16",
      strike_price: 150,
      shares_per_contract: 100,
      break_even_price: 179.075,
      implied_volatility: 0.3570277203465058,
      open_interest: 8133,
      fair_market_value: 20.5,
      greeks: { delta: 0.6436614934293701, gamma: 0.0061735291012820675, theta: -0.028227189324641973, vega: 0.6381159723175714 },
      day: {
        ...{ open: 29.99, high: 32.25, low: 29, close: 29, volume: 8, vwap: 30.7738, change: -2.3999999999999986 },
        ...{ change_percent: -7.643312101910824, previous_close: 31.4, last_updated: "2022-04-29T04:00:00.000Z" },
      },
      last_quote: { bid: 28.9, ask: 29.25, bid_size: 294, ask_size: 209, midpoint: 29.075, last_updated: "2022-04-29T17:44:20.800Z", timeframe: "REAL-TIME" },
      last_trade: { price: 29.25, size: 1, exchange: 309, sip_timestamp: "2023-03-13T14:42:07.715Z", timeframe: "REAL-TIME" },
    });
  });

  it("a plan without options: Massive's 403 is 403 not_included (plan_not_included) with its message, never the key", async () => {
    const err = await getOptionsChain("SPY", optionsChainQuery.parse({}), { providers: providers(), now }).catch((e) => e);
    expect(err).toMatchObject({ code: "not_included", status: 403, reason: "plan_not_included" });
    expect(err.detail).toContain("You are not entitled to this data");
    expect(JSON.stringify(err.toBody())).not.toContain(KEY);
  });

  it("refuses crossed ranges with a 400 naming the parameter, before calling the vendor", async () => {
    const before = replay.seen.length;
    await expect(
      getOptionsChain("AAPL", optionsChainQuery.parse({ strike_min: "200", strike_max: "100" }), { providers: providers(), now }),
    ).rejects.toMatchObject({
      code: "invalid_request",
      extra: { parameter: "strike_min" },
    });
    expect(replay.seen.length).toBe(before);
  });

  it("offline, the upstream itself refuses with live_only (behind the gateway's refusal before payment)", async () => {
    await expect(getOptionsChain("AAPL", optionsChainQuery.parse({}), { providers: embeddedProviders(), now })).rejects.toMatchObject({
      code: "not_included",
      status: 403,
      reason: "live_only",
    });
  });
});
