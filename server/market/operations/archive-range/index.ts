// GET /api/v1/archive/{feed}/range: per-day summaries of a feed's captured days, oldest first, without payloads.
import { archivedFeedsCoverage } from "../../archive/feed";
import { getArchiveRange } from "../../archive/read-archive";
import { MARKET_SOURCE } from "../../lib/envelope";
import { defineOperation } from "../operation";
import { contract } from "./contract";

export const archiveRange = defineOperation({
  contract,
  service: "market-archive",
  meter: { key: "archive_range", title: "Archive range", priceMicros: 30_000n },
  source: MARKET_SOURCE,
  goal: "per-day summaries of an archived feed over a date range",
  example: ({ feeds }) => ({ path: { feed: feeds[0]?.feed ?? "aggregates" }, query: { limit: "30" } }),
  coverage: (_kind, { feeds }) => archivedFeedsCoverage(feeds),
  run: ({ path, query }, ctx) => getArchiveRange(path.feed, query, { feeds: ctx.feeds, now: ctx.now }),
});
