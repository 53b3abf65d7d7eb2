import { TRPCError } from "@trpc/server";
import { getHTTPStatusCodeFromError } from "@trpc/server/http";
import { describe, expect, it } from "vitest";
import { ERROR_STATUS } from "../errors";
import { trpcCodeFor } from "./init";

describe("tRPC error codes", () => {
  it("answer every AppError with the HTTP status of the one error table, wherever tRPC has that status", () => {
    // tRPC has no code for 410 Gone or 414 URI Too Long; those fall back to 400, still a client error.
    const noTrpcEquivalent = new Set([410, 414]);
    for (const [code, status] of Object.entries(ERROR_STATUS)) {
      const http = getHTTPStatusCodeFromError(new TRPCError({ code: trpcCodeFor(status) }));
      if (noTrpcEquivalent.has(status)) expect(http, code).toBe(400);
      else expect(http, code).toBe(status);
    }
  });
});
