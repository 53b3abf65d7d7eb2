// What the seller console shows of the market archive. The archive is global to the deployment (one capture
// per feed, entity and UTC day, made by the built-in market data upstream), not per seller.
import { findArchiveRange } from "./archive.queries";
import type { FeedDef } from "./feed";
import { getArchiveCatalog } from "./read-archive";

/** `feeds`: the registry's (`archiveFeeds()`), so the console lists what the operations archive. */
export async function getArchiveCoverage(deps: { feeds: readonly FeedDef[] }) {
  // The same catalog GET /api/v1/archive (the paid archive catalog) answers, so the console and the API never disagree.
  const catalog = await getArchiveCatalog(deps);
  const feeds = await Promise.all(
    catalog.feeds.map(async (f) => ({
      feed: f.feed,
      description: f.description,
      entities: await Promise.all(
        f.entities.map(async (e) => {
          if (!e.coverage) return { entity: e.entity, firstDate: null, lastDate: null, days: 0, lastCapturedAt: null };
          // The newest day's captured_at is the last capture: a day is written once, on its own UTC day, and
          // never backfilled, so no older day can have been captured later. One indexed row, no payload.
          const [latest] = await findArchiveRange(f.feed, e.entity, { limit: 1, newest: true });
          return {
            entity: e.entity,
            firstDate: e.coverage.first_date,
            lastDate: e.coverage.last_date,
            days: e.coverage.days,
            lastCapturedAt: latest?.capturedAt.toISOString() ?? null,
          };
        }),
      ),
    })),
  );
  return { asOf: catalog.as_of, note: catalog.note, feeds };
}
