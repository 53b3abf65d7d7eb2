import { db, type Tx } from "../../db/client";
import { dateToUtcMs, utcMsToDate } from "../lib/dates";

export type ArchiveDayRow = {
  feed: string;
  entity: string;
  observedDate: Date;
  observedAt: Date;
  capturedAt: Date;
  ingestedAt: Date;
  contentHash: string;
  summary: unknown;
};

const DAY_SELECT = {
  feed: true,
  entity: true,
  observedDate: true,
  observedAt: true,
  capturedAt: true,
  ingestedAt: true,
  contentHash: true,
  summary: true,
} as const;

export const dateOnly = (d: Date) => utcMsToDate(d.getTime());
const asDate = (s: string) => new Date(dateToUtcMs(s));

export async function findArchiveDay(feed: string, entity: string, date: string | undefined): Promise<(ArchiveDayRow & { payload: unknown }) | null> {
  return db.marketArchiveDay.findFirst({
    where: { feed, entity, ...(date ? { observedDate: asDate(date) } : {}) },
    orderBy: { observedDate: "desc" },
    select: { ...DAY_SELECT, payload: true },
  });
}

/** Days between from and to (inclusive, either open), `limit` of them: oldest first, or the most recent. */
export async function findArchiveRange(
  feed: string,
  entity: string,
  q: { from?: string; to?: string; limit: number; newest: boolean },
): Promise<ArchiveDayRow[]> {
  const rows = await db.marketArchiveDay.findMany({
    where: { feed, entity, observedDate: { ...(q.from ? { gte: asDate(q.from) } : {}), ...(q.to ? { lte: asDate(q.to) } : {}) } },
    orderBy: { observedDate: q.newest ? "desc" : "asc" },
    take: q.limit,
    select: DAY_SELECT,
  });
  return q.newest ? rows.reverse() : rows;
}

export async function archiveCoverage(): Promise<{ feed: string; entity: string; first: string; last: string; days: number }[]> {
  const groups = await db.marketArchiveDay.groupBy({
    by: ["feed", "entity"],
    _min: { observedDate: true },
    _max: { observedDate: true },
    _count: { _all: true },
  });
  return groups.map((g) => ({
    feed: g.feed,
    entity: g.entity,
    first: dateOnly(g._min.observedDate!),
    last: dateOnly(g._max.observedDate!),
    days: g._count._all,
  }));
}

// Serialises capture across app instances and the CLI: one holder per database at a time.
const CAPTURE_LOCK_SQL = "SELECT pg_try_advisory_xact_lock(hashtext('market_archive_capture')) AS locked";

/** Run `fn` holding the capture lock in one transaction; null when another capture holds it. */
export async function withCaptureLock<T>(fn: (tx: Tx) => Promise<T>): Promise<T | null> {
  return db.$transaction(
    async (tx) => {
      const [row] = await tx.$queryRawUnsafe<{ locked: boolean }[]>(CAPTURE_LOCK_SQL);
      if (!row?.locked) return null;
      return fn(tx);
    },
    { maxWait: 10_000, timeout: 180_000 },
  );
}

export async function latestCapturedDate(tx: Tx, feed: string, entity: string): Promise<string | null> {
  const row = await tx.marketArchiveDay.findFirst({ where: { feed, entity }, orderBy: { observedDate: "desc" }, select: { observedDate: true } });
  return row ? dateOnly(row.observedDate) : null;
}

export async function insertArchiveDay(
  tx: Tx,
  d: {
    id: string;
    feed: string;
    entity: string;
    observedDate: string;
    observedAt: Date;
    capturedAt: Date;
    ingestedAt: Date;
    contentHash: string;
    summary: object;
    payload: object;
  },
): Promise<boolean> {
  const res = await tx.marketArchiveDay.createMany({ data: [{ ...d, observedDate: asDate(d.observedDate) }], skipDuplicates: true });
  return res.count === 1;
}
