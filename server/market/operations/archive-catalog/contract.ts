// The archive catalog operation's contract (SERVICE.md part 2); the archive's shared shapes are server/contracts/archive.ts.
// Zod only (and the shared pieces in server/contracts): the upstream validates with it, OpenAPI and the MCP tool are
// generated from it, tests check responses against it. Any code may import it, a client bundle included.
import { z } from "zod";
import { archiveCatalogResponse } from "../../../contracts/archive";
import type { OperationContract } from "../../../contracts/operations";

export { archiveCatalogResponse };

export const archiveCatalogQuery = z.object({});

export const contract = {
  key: "archive_catalog",
  method: "GET",
  path: "/api/v1/archive",
  upstreamPath: "/archive",
  summary: "Archive catalog: feeds, entities and coverage",
  description: "Every point-in-time archive feed and entity with its first and last captured day.",
  query: archiveCatalogQuery,
  response: archiveCatalogResponse,
  keywords: ["snapshot", "point-in-time", "history", "coverage"],
} satisfies OperationContract;
