// The archive: one capture per UTC day, refused changes at the database level, coverage, ranges, and a
// capture that is safe when several run at once.
import { createHash, randomBytes } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { archiveCatalogResponse, archiveRangeResponse, archiveSnapshotResponse } from "../../contracts/archive";
import { db } from "../../db/client";
import { AppError } from "../../errors";
import { addDays } from "../lib/dates";
import { embeddedProviders } from "../providers/embedded";
import { canonicalJson } from "./canonical-json";
import { captureArchive, captureExitCode } from "./capture-archive";
import type { FeedDef } from "./feed";
import { getArchiveCatalog, getArchiveDay, getArchiveRange } from "./read-archive";

// Unique feed names per run: the built-in feeds belong to the upstream test file.
const tag = randomBytes(4).toString("hex");
let fetches = 0;
const counterFeed: FeedDef = {
  feed: `t${tag}_counter`,
  description: "test feed: a payload that changes every day",
  entities: ["alpha", "beta"],
  async fetch(entity, { observedDate, now }) {
    fetches++;
    return { entity, observed: observedDate, as_of: now().toISOString(), nested: { z: 1, a: [3, 2, 1] } };
  },
  summarize: (p) => ({ observed: (p as { observed: string }).observed }),
};
const failingFeed: FeedDef = {
  feed: `t${tag}_failing`,
  description: null as unknown as string,
  entities: ["only"],
  fetch: async () => {
    throw new Error("vendor down");
  },
  summarize: () => ({}),
};
// A provider that does not hold the data answers 403 not_included (basis on the embedded data).
const notIncludedFeed: FeedDef = {
  feed: `t${tag}_not_included`,
  description: "test feed: data the provider does not include",
  entities: ["only"],
  fetch: async () => {
    throw new AppError("not_included", { detail: "the provider's dataset does not include this" });
  },
  summarize: () => ({}),
};
const feeds = [counterFeed, failingFeed];
const providers = embeddedProviders();
const at =
  (date: string, time = "09:30:00") =>
  () =>
    new Date(`${date}T${time}Z`);
const START = "2091-03-01";

beforeAll(async () => {
  // 40 consecutive UTC days, the clock moved forward one day per capture.
  for (let i = 0; i < 40; i++) {
    const res = await captureArchive({ now: at(addDays(START, i)), feeds, providers });
    expect(res.type).toBe("ran");
  }
});

describe("capture", () => {
  it("records each feed and entity once per UTC day, with provenance and a content hash", async () => {
    const rows = await db.marketArchiveDay.findMany({ where: { feed: counterFeed.feed, entity: "alpha" }, orderBy: { observedDate: "asc" } });
    expect(rows).toHaveLength(40);
    const first = rows[0]!;
    expect(first.observedDate.toISOString().slice(0, 10)).toBe(START);
    expect(first.observedAt.toISOString()).toBe(`${START}T09:30:00.000Z`);
    expect(first.contentHash).toBe(createHash("sha256").update(canonicalJson(first.payload)).digest("hex"));
    // The payload is kept as returned (json, not jsonb: key order preserved).
    expect(JSON.stringify(first.payload)).toBe(
      JSON.stringify({ entity: "alpha", observed: START, as_of: `${START}T09:30:00.000Z`, nested: { z: 1, a: [3, 2, 1] } }),
    );
  });

  it("a second capture the same day changes nothing and fetches nothing", async () => {
    const day = addDays(START, 39);
    const before = fetches;
    const res = await captureArchive({ now: at(day, "23:59:00"), feeds, providers });
    expect(res.type === "ran" && res.outcomes.filter((o) => o.feed === counterFeed.feed).map((o) => o.status)).toEqual([
      "already_captured",
      "already_captured",
    ]);
    expect(fetches).toBe(before);
    const row = await db.marketArchiveDay.findFirst({ where: { feed: counterFeed.feed, entity: "alpha", observedDate: new Date(`${day}T00:00:00Z`) } });
    expect(row!.observedAt.toISOString()).toBe(`${day}T09:30:00.000Z`);
  });

  it("never backfills: a clock behind the archive writes nothing", async () => {
    const res = await captureArchive({ now: at(addDays(START, 10)), feeds, providers });
    expect(res.type === "ran" && res.outcomes.find((o) => o.feed === counterFeed.feed)!.status).toBe("clock_behind_archive");
  });

  it("records a failing feed as failed and keeps going", async () => {
    const days = await db.marketArchiveDay.count({ where: { feed: failingFeed.feed } });
    expect(days).toBe(0);
    const cat = await getArchiveCatalog({ feeds });
    expect(cat.feeds.find((f) => f.feed === failingFeed.feed)!.entities).toEqual([{ entity: "only", coverage: null }]);
  });

  it("records data the provider does not include as not_available: no row, not a failure", async () => {
    const res = await captureArchive({ now: at("2091-06-01"), feeds: [notIncludedFeed], providers });
    expect(res).toEqual({
      type: "ran",
      observed_date: "2091-06-01",
      outcomes: [{ feed: notIncludedFeed.feed, entity: "only", status: "not_available", detail: "the provider's dataset does not include this" }],
    });
    expect(captureExitCode(res.type === "ran" ? res.outcomes : [])).toBe(0);
    // Tried again the next day: still not_available, still nothing written.
    const again = await captureArchive({ now: at("2091-06-02"), feeds: [notIncludedFeed], providers });
    expect(again.type === "ran" && again.outcomes.map((o) => o.status)).toEqual(["not_available"]);
    expect(await db.marketArchiveDay.count({ where: { feed: notIncludedFeed.feed } })).toBe(0);
    const cat = archiveCatalogResponse.parse(await getArchiveCatalog({ feeds: [notIncludedFeed] }));
    expect(cat.feeds).toEqual([{ feed: notIncludedFeed.feed, description: notIncludedFeed.description, entities: [{ entity: "only", coverage: null }] }]);
  });

  it("a run exits 2 when a feed failed, 0 when the only problems are not_available feeds", async () => {
    const res = await captureArchive({ now: at("2091-06-03"), feeds: [notIncludedFeed, failingFeed], providers });
    expect(res.type === "ran" && res.outcomes.map((o) => [o.feed, o.status])).toEqual([
      [notIncludedFeed.feed, "not_available"],
      [failingFeed.feed, "failed"],
    ]);
    expect(captureExitCode(res.type === "ran" ? res.outcomes : [])).toBe(2);
    expect(
      captureExitCode([
        { feed: "basis", entity: "us_equity_perps", status: "not_available" },
        { feed: "aggregates", entity: "AAPL", status: "captured" },
        { feed: "aggregates", entity: "SPX", status: "already_captured" },
      ]),
    ).toBe(0);
  });

  it("is safe when several captures run at once (advisory lock, one row per day)", async () => {
    const day = addDays(START, 40);
    const results = await Promise.all(Array.from({ length: 6 }, () => captureArchive({ now: at(day), feeds, providers })));
    expect(results.filter((r) => r.type === "ran").length).toBeGreaterThanOrEqual(1);
    const captured = results.flatMap((r) => (r.type === "ran" ? r.outcomes : [])).filter((o) => o.status === "captured" && o.feed === counterFeed.feed);
    expect(captured).toHaveLength(2); // alpha and beta, once each
    expect(await db.marketArchiveDay.count({ where: { feed: counterFeed.feed, observedDate: new Date(`${day}T00:00:00Z`) } })).toBe(2);
  });
});

describe("the database refuses any change to a captured day", () => {
  const feed = () => counterFeed.feed;
  it("UPDATE is refused", async () => {
    await expect(db.$executeRawUnsafe(`UPDATE market_archive_days SET summary = '{"x":1}' WHERE feed = $1`, feed())).rejects.toThrow(/append-only/);
    await expect(
      db.$executeRawUnsafe(`UPDATE market_archive_days SET payload = '{}' , content_hash = repeat('0', 64) WHERE feed = $1 AND entity = 'alpha'`, feed()),
    ).rejects.toThrow(/append-only/);
  });
  it("DELETE and TRUNCATE are refused", async () => {
    await expect(db.$executeRawUnsafe(`DELETE FROM market_archive_days WHERE feed = $1`, feed())).rejects.toThrow(/append-only/);
    await expect(db.$executeRawUnsafe(`TRUNCATE market_archive_days`)).rejects.toThrow(/append-only/);
    expect(await db.marketArchiveDay.count({ where: { feed: feed() } })).toBe(82);
  });
  it("a second row for the same day and a backfilled day are refused", async () => {
    const insert = (date: string) =>
      db.$executeRawUnsafe(
        `INSERT INTO market_archive_days (id, feed, entity, observed_date, observed_at, captured_at, ingested_at, content_hash, summary, payload)
         VALUES ($1, $2, 'alpha', $3::date, $4::timestamptz, $4::timestamptz, $4::timestamptz, repeat('a', 64), '{}', '{}')`,
        `arc_${randomBytes(8).toString("hex")}`,
        feed(),
        date,
        `${date}T10:00:00Z`,
      );
    await expect(insert(addDays(START, 40))).rejects.toThrow(/unique|duplicate/i);
    await expect(insert(addDays(START, 5))).rejects.toThrow(/no backfill/);
    // observed_date must be the UTC day of observed_at
    await expect(
      db.$executeRawUnsafe(
        `INSERT INTO market_archive_days (id, feed, entity, observed_date, observed_at, captured_at, ingested_at, content_hash, summary, payload)
         VALUES ('arc_x', $1, 'gamma', '2099-01-02', '2099-01-01T10:00:00Z', now(), now(), repeat('a', 64), '{}', '{}')`,
        feed(),
      ),
    ).rejects.toThrow(/observed_date_is_utc_day/);
  });
});

describe("reading the archive", () => {
  it("catalog coverage matches the captured days", async () => {
    const cat = archiveCatalogResponse.parse(await getArchiveCatalog({ feeds }));
    expect(cat.count).toBe(2);
    const f = cat.feeds.find((x) => x.feed === counterFeed.feed)!;
    expect(f.entities).toEqual([
      { entity: "alpha", coverage: { first_date: START, last_date: addDays(START, 40), days: 41 } },
      { entity: "beta", coverage: { first_date: START, last_date: addDays(START, 40), days: 41 } },
    ]);
  });

  it("day: the latest unless a date is given; the entity selects", async () => {
    const latest = archiveSnapshotResponse.parse(await getArchiveDay(counterFeed.feed, { entity: "beta" }, { feeds }));
    expect(latest.snapshot).toMatchObject({ entity: "beta", observed_date: addDays(START, 40), summary: { observed: addDays(START, 40) } });
    const past = await getArchiveDay(counterFeed.feed, { date: addDays(START, 3) }, { feeds });
    expect(past.snapshot).toMatchObject({ entity: "alpha", observed_date: addDays(START, 3) });
    expect(past.snapshot.payload).toMatchObject({ observed: addDays(START, 3) });
  });

  it("range: oldest first, no payloads, limit, from/to, most recent days without from", async () => {
    const r = archiveRangeResponse.parse(await getArchiveRange(counterFeed.feed, { from: START, limit: 10 }, { feeds }));
    expect(r.days.map((d) => d.observed_date)).toEqual(Array.from({ length: 10 }, (_, i) => addDays(START, i)));
    expect(r.note).toContain(`from=${addDays(START, 10)}`);
    const recent = await getArchiveRange(counterFeed.feed, { limit: 5 }, { feeds });
    expect(recent.days.map((d) => d.observed_date)).toEqual(Array.from({ length: 5 }, (_, i) => addDays(START, 36 + i)));
    const window = await getArchiveRange(counterFeed.feed, { from: addDays(START, 2), to: addDays(START, 4), limit: 366 }, { feeds });
    expect(window).toMatchObject({ count: 3, from: addDays(START, 2), to: addDays(START, 4) });
    expect(window.days[0]).not.toHaveProperty("payload");
  });
});
