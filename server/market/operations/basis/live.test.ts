// The basis operation's live source (perps.ts: Hyperliquid's info API, quotes from Massive daily closes) against the
// committed equity-perp snapshot (data/market/perps) replayed the way the venues answer (server/market/test/basis-replay.ts).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { liveProviders } from "../../providers/live";
import { startBasisReplayServer } from "../../test/basis-replay";
import { basisResponse } from "./contract";
import { getBasis } from "./get-basis";

let replay: Awaited<ReturnType<typeof startBasisReplayServer>>;
beforeAll(async () => {
  replay = await startBasisReplayServer();
});
afterAll(() => replay.close());

const cfg = () => ({
  massiveBaseUrl: replay.base,
  massiveApiKey: "test-massive-key-secret",
  treasuryBaseUrl: `${replay.base}/services/api/fiscal_service`,
  hyperliquidBaseUrl: replay.base,
  // Room for a loaded run: a reply later than the timeout is asked again, and this test counts the requests made.
  timeoutMs: 5_000,
  retries: 2,
  backoffMs: 5,
});

describe("hyperliquid adapter", () => {
  it("lists HIP-3 dexes, reads metaAndAssetCtxs per dex and keeps the US stocks", async () => {
    const res = await getBasis({ limit: 100, min_basis: 0 }, { providers: liveProviders(cfg()) });
    expect(basisResponse.parse(res)).toBeTruthy();
    expect(res.venue_map).toEqual({ xyz: "XYZ" });
    const posts = replay.seen.filter((s) => s.method === "POST").map((s) => JSON.parse(s.body));
    expect(posts).toEqual([{ type: "perpDexs" }, { type: "metaAndAssetCtxs", dex: "xyz" }]);
    expect(res.rows.map((r) => r.ticker)).toEqual(["HOOD", "COIN", "TSLA", "NFLX", "AMZN", "AMD", "PLTR"]);
    // The daily bars' last two closes become price and prev_close, stamped 16:00 New York of the last session.
    expect(res.rows.find((r) => r.perp_symbol === "xyz:TSLA")).toMatchObject({
      equity_price: 352.84,
      equity_prev_close: 357.45,
      equity_as_of: "2026-09-29T20:00:00Z",
      perp_mark: 354.62,
      comparable: true,
    });
    expect(res.provenance).toBeNull();
    expect(res.note).toBeNull();
  });
});
