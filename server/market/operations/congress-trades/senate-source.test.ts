// The live source (Senate Stock Watcher's aggregate file) against its recorded reply replayed locally
// (data/recorded/senate-stock-watcher/): the same trades as the committed CSV for those reports; failures as 502s.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startRouteReplay, type RouteReplay } from "../../test/route-replay";
import { liveConfig } from "../../test/live-kit";
import { findCongressTrades, type CongressTradesQuery } from "./find-congress-trades";
import { resetSenateCache, senateTradesSource } from "./senate-source";
import { failureOf as failure } from "../../test/refusals";

const RECORDED = fs.readFileSync(path.join(process.cwd(), "data/recorded/senate-stock-watcher/all_daily_summaries.json"), "utf8");
const PATH = "/timothycarambat/senate-stock-watcher-data/master/aggregate/all_daily_summaries.json";

let replay: RouteReplay;
beforeAll(async () => {
  replay = await startRouteReplay((req) => (req.url.pathname === PATH ? { body: RECORDED } : undefined));
});
afterAll(() => replay.close());
beforeEach(() => {
  resetSenateCache();
  replay.seen.length = 0;
});

const live = (url = `${replay.base}${PATH}`) =>
  senateTradesSource.live(liveConfig({ SENATE_STOCK_WATCHER_URL: url }, { timeoutMs: 2_000, retries: 0 }), {} as never);
const q = (over: Partial<CongressTradesQuery> = {}): CongressTradesQuery => ({
  date_field: "disclosure",
  sort: "disclosure_date",
  order: "desc",
  limit: 500,
  offset: 0,
  ...over,
});
describe("Senate Stock Watcher live", () => {
  it("parses the published aggregate file into the same trades as the committed CSV for the same reports", async () => {
    const fromLive = await findCongressTrades(q(), live());
    const offline = await findCongressTrades(q({ from: "2021-02-01" }), senateTradesSource.embedded({} as never));
    expect(fromLive.total).toBe(70);
    expect(fromLive.trades).toEqual(offline.trades);
    expect(Date.parse(fromLive.as_of!)).not.toBeNaN();
    expect(fromLive.coverage.disclosure_dates).toEqual({ first: "2021-02-01", last: "2021-03-10" });
  });

  it("reads the 2.6 MB file once an hour, not per call", async () => {
    const source = live();
    await findCongressTrades(q({ ticker: "AAPL" }), source);
    await findCongressTrades(q({ member: "Wyden" }), source);
    expect(replay.seen).toHaveLength(1);
  });

  it("answers a moved file or a body that is not the dataset with a 502 naming the setting", async () => {
    const moved = await failure(findCongressTrades(q(), live(`${replay.base}/moved.json`)));
    expect([moved.status, moved.code]).toEqual([502, "upstream_unavailable"]);
    expect(moved.detail).toContain("SENATE_STOCK_WATCHER_URL");
    replay.script({ body: JSON.stringify({ message: "rate limited" }) });
    const shape = await failure(findCongressTrades(q(), live()));
    expect([shape.status, shape.reason]).toEqual([502, "invalid_response"]);
  });
});
