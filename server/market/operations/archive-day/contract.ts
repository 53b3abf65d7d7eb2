// The archive day operation's contract (SERVICE.md part 2); the archive's shared shapes are server/contracts/archive.ts.
// Zod only (and the shared pieces in server/contracts): the upstream validates with it, OpenAPI and the MCP tool are
// generated from it, tests check responses against it. Any code may import it, a client bundle included.
import { z } from "zod";
import { archiveEntity, archiveFeedPath, archiveSnapshotResponse } from "../../../contracts/archive";
import { isoDate } from "../../../contracts/common";
import type { OperationContract } from "../../../contracts/operations";

export { archiveFeedPath, archiveSnapshotResponse };

export const archiveDayQuery = z.object({
  date: isoDate.optional().meta({ description: "The UTC day to return. Default: the latest captured day." }),
  entity: archiveEntity.optional().meta({ description: "Entity on multi-entity feeds. Default: the feed's first entity." }),
});

export const contract = {
  key: "archive_day",
  method: "GET",
  path: "/api/v1/archive/{feed}",
  upstreamPath: "/archive/{feed}",
  summary: "One archived day of a feed (the exact payload captured that day)",
  description:
    "The immutable snapshot captured once per UTC day: the live payload as it was returned that day, with its " +
    "capture provenance (timestamps, content hash). Latest day unless `date` is given.",
  pathParams: archiveFeedPath,
  query: archiveDayQuery,
  response: archiveSnapshotResponse,
  keywords: ["snapshot", "point-in-time", "as of", "immutable"],
} satisfies OperationContract;
