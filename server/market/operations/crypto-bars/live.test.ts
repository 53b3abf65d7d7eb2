// The crypto bars' live source (Coinbase's public candles) against the recorded replies of data/recorded/coinbase,
// replayed by a local server: the reply's candles become UTC days oldest first, and Coinbase's 404 is 404 unknown_ticker.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { liveProviders } from "../../providers/live";
import { recorded, startRouteReplay, type RouteReplay } from "../../test/route-replay";
import { cryptoBarsQuery, cryptoBarsResponse } from "./contract";
import { getCryptoBars } from "./get-crypto-bars";

let replay: RouteReplay;
beforeAll(async () => {
  replay = await startRouteReplay(({ url }) => {
    if (url.pathname === "/api/v3/brokerage/market/products/BTC-USD/candles")
      return { status: 200, body: recorded("recorded/coinbase/market-products-BTC-USD-candles-ONE_DAY.json") };
    if (url.pathname.startsWith("/api/v3/brokerage/market/products/")) return { status: 404, body: recorded("recorded/coinbase/error-product-not-found.json") };
    return undefined;
  });
});
afterAll(() => replay.close());

const providers = () =>
  liveProviders({
    ...{ massiveBaseUrl: replay.base, massiveApiKey: "k", treasuryBaseUrl: replay.base, hyperliquidBaseUrl: replay.base },
    ...{ timeoutMs: 300, retries: 0, backoffMs: 5, settings: { COINBASE_BASE_URL: replay.base } },
  });
const now = () => new Date("2026-01-01T00:00:00Z");

describe("coinbase live candles", () => {
  it("asks for ONE_DAY candles over the window in seconds, and serves them oldest first as the recording has them", async () => {
    const a = await getCryptoBars("BTC-USD", cryptoBarsQuery.parse({ start: "2023-10-07", end: "2023-10-11" }), { providers: providers(), now });
    expect(cryptoBarsResponse.parse(a)).toBeTruthy();
    const asked = replay.seen.at(-1)!.url.searchParams;
    expect([asked.get("start"), asked.get("end"), asked.get("granularity")]).toEqual(["1696636800", "1696982400", "ONE_DAY"]);
    // The recording's five candles (newest first there), string for string the shelf's 2023-10-07..11 rows.
    expect(a.bars.map((b) => [b.date, b.open, b.close, b.volume, b.partial])).toEqual([
      ["2023-10-07", 27945.17, 27976.43, 3489.91595717, false],
      ["2023-10-08", 27976.44, 27933.55, 4118.56381073, false],
      ["2023-10-09", 27933.54, 27596.67, 10218.62556021, false],
      ["2023-10-10", 27596.67, 27393.29, 10265.79357936, false],
      ["2023-10-11", 27393.28, 26869.19, 16466.26612207, false],
    ]);
    expect(a).toMatchObject({ source: "coinbase", coverage: null, as_of: "2026-01-01T00:00:00.000Z" });
  });

  it("a product Coinbase does not list: its 404 is 404 unknown_ticker, nothing served", async () => {
    const err = await getCryptoBars("NOPE-USD", cryptoBarsQuery.parse({ start: "2023-10-07", end: "2023-10-11" }), { providers: providers(), now }).catch(
      (e) => e,
    );
    expect(err).toMatchObject({ code: "unknown_ticker", status: 404 });
    expect(err.detail).toContain("valid product_id is required");
  });

  it("splits a long window into calls of at most 350 days", async () => {
    const before = replay.seen.length;
    await getCryptoBars("BTC-USD", cryptoBarsQuery.parse({ start: "2022-01-01", end: "2023-12-31" }), { providers: providers(), now });
    const calls = replay.seen.slice(before).map((s) => [Number(s.url.searchParams.get("start")), Number(s.url.searchParams.get("end"))]);
    expect(calls).toHaveLength(3);
    for (const [s, e] of calls) expect((e! - s!) / 86400).toBeLessThanOrEqual(349);
  });
});
