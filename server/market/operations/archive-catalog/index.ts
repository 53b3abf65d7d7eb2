// GET /api/v1/archive: every archived feed and entity with its first and last captured day (the archive store's
// catalog over the registry's feeds).
import { archivedFeedsCoverage } from "../../archive/feed";
import { getArchiveCatalog } from "../../archive/read-archive";
import { MARKET_SOURCE } from "../../lib/envelope";
import { defineOperation } from "../operation";
import { contract } from "./contract";

export const archiveCatalog = defineOperation({
  contract,
  service: "market-archive",
  meter: { key: "archive", title: "Archive catalog", priceMicros: 20_000n },
  source: MARKET_SOURCE,
  goal: "which archive feeds and captured days exist",
  example: () => ({}),
  coverage: (_kind, { feeds }) => archivedFeedsCoverage(feeds),
  run: (_params, ctx) => getArchiveCatalog({ feeds: ctx.feeds, now: ctx.now }),
});
