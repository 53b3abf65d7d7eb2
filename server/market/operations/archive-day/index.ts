// GET /api/v1/archive/{feed}: one captured day of a feed, the payload exactly as it was served that day.
import { archivedFeedsCoverage } from "../../archive/feed";
import { getArchiveDay } from "../../archive/read-archive";
import { MARKET_SOURCE } from "../../lib/envelope";
import { defineOperation } from "../operation";
import { contract } from "./contract";

export const archiveDay = defineOperation({
  contract,
  service: "market-archive",
  meter: { key: "archive_feed", title: "Archive day", priceMicros: 20_000n },
  source: MARKET_SOURCE,
  goal: "the archived snapshot of a feed as it was captured on one day",
  example: ({ feeds }) => ({ path: { feed: feeds[0]?.feed ?? "aggregates" }, query: { entity: feeds[0]?.entities[0] ?? "AAPL" } }),
  coverage: (_kind, { feeds }) => archivedFeedsCoverage(feeds),
  run: ({ path, query }, ctx) => getArchiveDay(path.feed, query, { feeds: ctx.feeds, now: ctx.now }),
});
