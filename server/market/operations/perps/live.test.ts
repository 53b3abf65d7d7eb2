// The perps' live source (Hyperliquid's info API) against the recorded replies of data/crypto/perps replayed by a local
// server: perpDexs, then metaAndAssetCtxs for the validator-run dex and each HIP-3 dex; the venue's error reply for a dex
// it does not know (500, body null) is a 502, nothing served.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { liveProviders } from "../../providers/live";
import { recorded, startRouteReplay, type RouteReplay } from "../../test/route-replay";
import { perpsQuery, perpsResponse } from "./contract";
import { getPerps } from "./get-perps";

const errors = JSON.parse(recorded("crypto/perps/errors.json")) as Record<string, { status: number; body: string }>;
let dexes: unknown[] = [];
let replay: RouteReplay;
beforeAll(async () => {
  // The recorded perpDexs reply (the basis snapshot's: the validator-run dex as null, then xyz).
  dexes = (JSON.parse(recorded("market/perps/equity-perps-snapshot.json")) as { perpDexs: unknown[] }).perpDexs;
  replay = await startRouteReplay(({ method, url, body }) => {
    if (method !== "POST" || url.pathname !== "/info") return undefined;
    const b = JSON.parse(body) as { type: string; dex?: string };
    if (b.type === "perpDexs") return { status: 200, body: JSON.stringify(dexes) };
    if (b.type === "metaAndAssetCtxs" && b.dex === undefined) return { status: 200, body: recorded("crypto/perps/metaAndAssetCtxs-default-BTC-ETH.json") };
    if (b.type === "metaAndAssetCtxs" && b.dex === "xyz") return { status: 200, body: recorded("crypto/perps/metaAndAssetCtxs-xyz-equities.json") };
    if (b.type === "metaAndAssetCtxs") return { status: errors.unknown_dex!.status, body: errors.unknown_dex!.body };
    return { status: errors.bogus_type!.status, body: errors.bogus_type!.body, type: "text/plain; charset=utf-8" };
  });
});
afterAll(() => replay.close());

const providers = () =>
  liveProviders({
    massiveBaseUrl: replay.base,
    massiveApiKey: "k",
    treasuryBaseUrl: replay.base,
    hyperliquidBaseUrl: replay.base,
    timeoutMs: 500,
    retries: 0,
    backoffMs: 5,
  });

describe("hyperliquid live contexts", () => {
  it("reads the validator-run dex and every HIP-3 dex, keeps crypto and US stock perps, and dates them now", async () => {
    const before = replay.seen.length;
    const a = perpsResponse.parse(await getPerps(perpsQuery.parse({ limit: "500" }), { providers: providers() }));
    const asked = replay.seen.slice(before).map((s) => JSON.parse(s.body));
    expect(asked).toEqual([{ type: "perpDexs" }, { type: "metaAndAssetCtxs" }, { type: "metaAndAssetCtxs", dex: "xyz" }]);
    expect(a).toMatchObject({ recorded: false, recordings: null, total_available: 29 });
    expect(a.rows.find((r) => r.symbol === "xyz:TSLA")).toMatchObject({
      mark_price: 354.62,
      oracle_price: 354.4,
      funding_rate_hourly: 0.0000218806,
      open_interest: 152492.282,
    });
    expect(a.rows.every((r) => r.as_of === a.as_of)).toBe(true);
  });

  it("a dex the venue answers 500 (body null) for is a 502 upstream_unavailable", async () => {
    dexes = [...dexes, { name: "nope", fullName: "Nope" }];
    const err = await getPerps(perpsQuery.parse({}), { providers: providers() }).catch((e) => e);
    dexes = dexes.slice(0, -1);
    expect(err).toMatchObject({ code: "upstream_unavailable", status: 502, reason: "provider_error" });
    expect(err.detail).toContain("hyperliquid answered 500");
  });
});
