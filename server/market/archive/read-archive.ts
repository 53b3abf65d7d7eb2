// The three archive read operations: catalog, one day, a range of day summaries.
import type { ArchiveCatalogResponse, ArchiveRangeResponse, ArchiveSnapshotResponse } from "../../contracts/archive";
import { AppError, invalidParameter } from "../../errors";
import { MARKET_SOURCE, systemClock, type Clock } from "../lib/envelope";
import { archiveCoverage, dateOnly, findArchiveDay, findArchiveRange } from "./archive.queries";
import type { FeedDef } from "./feed";

/** `feeds`: the registry's (`archiveFeeds()` in server/market/operations), or a test's own. */
type Deps = { feeds: readonly FeedDef[]; now?: Clock };

function feedOf(name: string, feeds: readonly FeedDef[]): FeedDef {
  const f = feeds.find((x) => x.feed === name);
  if (!f)
    throw new AppError("not_found", {
      reason: "unknown_feed",
      detail: `no archive feed named ${name}; feeds: ${feeds.map((x) => x.feed).join(", ")}`,
      extra: { feed: name },
    });
  return f;
}

function entityOf(f: FeedDef, entity: string | undefined): string {
  if (entity === undefined) return f.entities[0]!;
  if (!f.entities.includes(entity))
    throw new AppError("not_found", {
      reason: "unknown_entity",
      detail: `feed ${f.feed} has no entity ${entity}; entities: ${f.entities.join(", ")}`,
      extra: { feed: f.feed, entity },
    });
  return entity;
}

export async function getArchiveCatalog(deps: Deps): Promise<ArchiveCatalogResponse> {
  const feeds = deps.feeds;
  const cov = await archiveCoverage();
  return {
    source: MARKET_SOURCE,
    as_of: (deps.now ?? systemClock)().toISOString(),
    note: "Each feed is captured once per UTC day and never changed or backfilled. Coverage counts the days captured; a day a feed failed is absent, and a feed whose data the provider does not include has coverage null.",
    count: feeds.length,
    feeds: feeds.map((f) => ({
      feed: f.feed,
      description: f.description,
      entities: f.entities.map((entity) => {
        const c = cov.find((x) => x.feed === f.feed && x.entity === entity);
        return { entity, coverage: c ? { first_date: c.first, last_date: c.last, days: c.days } : null };
      }),
    })),
  };
}

export async function getArchiveDay(feed: string, q: { date?: string; entity?: string }, deps: Deps): Promise<ArchiveSnapshotResponse> {
  const f = feedOf(feed, deps.feeds);
  const entity = entityOf(f, q.entity);
  const day = await findArchiveDay(f.feed, entity, q.date);
  if (!day)
    throw new AppError("archive_day_not_found", {
      detail: q.date ? `${f.feed}/${entity} has no capture for ${q.date}` : `${f.feed}/${entity} has no captured day yet`,
      extra: { feed: f.feed, entity, ...(q.date ? { date: q.date } : {}) },
    });
  return {
    source: MARKET_SOURCE,
    as_of: (deps.now ?? systemClock)().toISOString(),
    snapshot: {
      feed: day.feed,
      entity: day.entity,
      observed_date: dateOnly(day.observedDate),
      observed_at: day.observedAt.toISOString(),
      captured_at: day.capturedAt.toISOString(),
      ingested_at: day.ingestedAt.toISOString(),
      content_hash: day.contentHash,
      summary: day.summary as Record<string, unknown>,
      payload: day.payload,
    },
  };
}

export async function getArchiveRange(
  feed: string,
  q: { from?: string; to?: string; entity?: string; limit: number },
  deps: Deps,
): Promise<ArchiveRangeResponse> {
  const f = feedOf(feed, deps.feeds);
  const entity = entityOf(f, q.entity);
  if (q.from && q.to && q.from > q.to) throw invalidParameter("from", `from must not be after to (got from ${q.from}, to ${q.to})`);
  // With `from`, the first `limit` days from it; without, the most recent `limit` days. Oldest first either way.
  const rows = await findArchiveRange(f.feed, entity, { from: q.from, to: q.to, limit: q.limit + 1, newest: !q.from });
  const more = rows.length > q.limit;
  const days = (q.from ? rows.slice(0, q.limit) : rows.slice(rows.length - Math.min(rows.length, q.limit))).map((d) => ({
    observed_date: dateOnly(d.observedDate),
    observed_at: d.observedAt.toISOString(),
    captured_at: d.capturedAt.toISOString(),
    content_hash: d.contentHash,
    summary: d.summary as Record<string, unknown>,
  }));
  const page = more
    ? q.from
      ? ` More days follow: continue with from=${nextDay(days[days.length - 1]!.observed_date)}.`
      : ` Earlier days exist: pass from= to page from the start.`
    : "";
  return {
    source: MARKET_SOURCE,
    as_of: (deps.now ?? systemClock)().toISOString(),
    feed: f.feed,
    entity,
    from: q.from ?? days[0]?.observed_date ?? null,
    to: q.to ?? days[days.length - 1]?.observed_date ?? null,
    count: days.length,
    note: `Per-day summaries, oldest first, without payloads; fetch a full day with GET /api/v1/archive/${f.feed}?date=YYYY-MM-DD.${page}`,
    days,
  };
}

function nextDay(d: string): string {
  return new Date(Date.parse(`${d}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
}
