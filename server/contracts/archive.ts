// The point-in-time archive's shapes (SERVICE.md part 2): shared by the archive's three read operations
// (server/market/operations/archive-*) and the archive store that answers them (server/market/archive), which sits a
// floor below the operations and so cannot import their folders.
import { z } from "zod";
import { envelope } from "./common";

export const archiveFeedPath = z.object({
  feed: z.string().regex(/^[a-z0-9][a-z0-9_\-]{0,63}$/, "must be a feed name from the archive catalog"),
});
export const archiveEntity = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9._\-:]+$/, "must be an entity name from the archive catalog");

const coverage = z.object({ first_date: z.string(), last_date: z.string(), days: z.number() }).nullable();

export const archiveCatalogResponse = z.object({
  source: envelope.source,
  as_of: envelope.as_of,
  feedback: envelope.feedback,
  note: z.string(),
  count: z.number(),
  feeds: z.array(
    z.object({
      feed: z.string(),
      description: z.string().nullable(),
      entities: z.array(z.object({ entity: z.string(), coverage })),
    }),
  ),
});

export const archiveSnapshotResponse = z.object({
  source: envelope.source,
  as_of: envelope.as_of,
  feedback: envelope.feedback,
  snapshot: z.object({
    feed: z.string(),
    entity: z.string(),
    observed_date: z.string(),
    observed_at: z.string(),
    captured_at: z.string(),
    ingested_at: z.string(),
    content_hash: z.string(),
    summary: z.record(z.string(), z.unknown()),
    payload: z.unknown(),
  }),
});

export const archiveRangeResponse = z.object({
  source: envelope.source,
  as_of: envelope.as_of,
  feedback: envelope.feedback,
  feed: z.string(),
  entity: z.string(),
  from: z.string().nullable(),
  to: z.string().nullable(),
  count: z.number(),
  note: z.string(),
  days: z.array(
    z.object({
      observed_date: z.string(),
      observed_at: z.string(),
      captured_at: z.string(),
      content_hash: z.string(),
      summary: z.record(z.string(), z.unknown()),
    }),
  ),
});

export type ArchiveCatalogResponse = z.infer<typeof archiveCatalogResponse>;
export type ArchiveSnapshotResponse = z.infer<typeof archiveSnapshotResponse>;
export type ArchiveRangeResponse = z.infer<typeof archiveRangeResponse>;
