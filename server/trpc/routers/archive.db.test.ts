// The console's archive coverage: the API catalog's coverage plus the last capture time, for sellers only.
import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { seedMarketSeller } from "../../../prisma/seed";
import { db } from "../../db/client";
import { getArchiveCoverage } from "../../market/archive/get-archive-coverage";
import { captureArchive } from "../../market/archive/capture-archive";
import type { FeedDef } from "../../market/archive/feed";
import { addDays } from "../../market/lib/dates";
import { archiveFeeds } from "../../market/operations";
import { embeddedProviders } from "../../market/providers/embedded";
import { createCaller, sessionFor } from "../../testing/trpc";

// Unique feed names per run: the built-in feeds belong to the upstream test file.
const tag = randomBytes(4).toString("hex");
const feed: FeedDef = {
  feed: `t${tag}_console`,
  description: "test feed for the console",
  entities: ["captured", "never"],
  fetch: async (entity, { observedDate }) => {
    if (entity === "never") throw new Error("vendor down");
    return { entity, observedDate };
  },
  summarize: () => ({}),
};

describe("archive coverage for the console", () => {
  it("reports first and last day, days and the last capture time per feed and entity", async () => {
    const start = "2092-05-01";
    for (let i = 0; i < 3; i++)
      await captureArchive({ now: () => new Date(`${addDays(start, i)}T06:0${i}:00Z`), feeds: [feed], providers: embeddedProviders() });
    const cov = await getArchiveCoverage({ feeds: [feed] });
    expect(cov.feeds).toEqual([
      {
        feed: feed.feed,
        description: feed.description,
        entities: [
          { entity: "captured", firstDate: start, lastDate: addDays(start, 2), days: 3, lastCapturedAt: `${addDays(start, 2)}T06:02:00.000Z` },
          { entity: "never", firstDate: null, lastDate: null, days: 0, lastCapturedAt: null },
        ],
      },
    ]);
  });

  it("lists the built-in feeds to a signed-in seller", async () => {
    const s = await seedMarketSeller(db, {
      slug: `arc-${tag}`,
      name: "Arc",
      hosts: [`arc-${tag}.test`],
      email: `arc-${tag}@arc.test`,
      password: "pw-123456",
      payTo: null,
      signingSecret: null,
    });
    const res = await createCaller(sessionFor(s.userId, s.sellerId)).archive.coverage();
    // The built-in feeds: the operations registry's.
    const builtIn = archiveFeeds();
    expect(res.feeds.map((f) => f.feed)).toEqual(builtIn.map((f) => f.feed));
    expect(res.feeds.flatMap((f) => f.entities.map((e) => e.entity))).toEqual(builtIn.flatMap((f) => f.entities));
  });
});
