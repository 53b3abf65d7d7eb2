// The funding history's live source (Hyperliquid's fundingHistory) against the recorded reply replayed by a local
// server: the request's coin and times, the rows, and the venue's answer for a coin it does not list (200, body null).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { liveProviders } from "../../providers/live";
import { recorded, startRouteReplay, type RouteReplay } from "../../test/route-replay";
import { perpFundingQuery, perpFundingResponse } from "./contract";
import { getPerpFunding } from "./get-perp-funding";

const errors = JSON.parse(recorded("crypto/perps/errors.json")) as Record<string, { status: number; body: string }>;
let replay: RouteReplay;
beforeAll(async () => {
  replay = await startRouteReplay(({ body }) => {
    const b = JSON.parse(body) as { type: string; coin?: string };
    if (b.type === "fundingHistory" && b.coin === "xyz:TSLA") return { status: 200, body: recorded("crypto/perps/fundingHistory-xyz-TSLA.json") };
    return { status: errors.unknown_coin!.status, body: errors.unknown_coin!.body };
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
const now = () => new Date("2026-09-30T14:46:00Z");

describe("hyperliquid live funding history", () => {
  it("asks for the coin between the window's times and serves the rows in it", async () => {
    const a = perpFundingResponse.parse(
      await getPerpFunding("xyz:TSLA", perpFundingQuery.parse({ start: "2026-09-27", end: "2026-09-27" }), { providers: providers(), now }),
    );
    expect(JSON.parse(replay.seen.at(-1)!.body)).toEqual({
      type: "fundingHistory",
      coin: "xyz:TSLA",
      startTime: Date.parse("2026-09-27T00:00:00Z"),
      endTime: Date.parse("2026-09-28T00:00:00Z") - 1,
    });
    expect(a.count).toBe(24);
    expect(a).toMatchObject({ recorded: false, provenance: null, coverage: null, as_of: "2026-09-30T14:46:00.000Z" });
  });

  it("a coin the venue does not list (200, body null) is 404 unknown_ticker", async () => {
    await expect(getPerpFunding("xyz:NOPE", perpFundingQuery.parse({}), { providers: providers(), now })).rejects.toMatchObject({
      code: "unknown_ticker",
      status: 404,
    });
  });
});
