// The console's data coverage: every data operation of the registry with what it holds offline and live (the coverage
// discovery states before anyone pays), for signed-in sellers only.
import { randomBytes } from "node:crypto";
import { expect, it } from "vitest";
import { seedMarketSeller } from "../../../prisma/seed";
import { db } from "../../db/client";
import { archiveFeeds, OPERATIONS } from "../../market/operations";
import { createCaller, sessionFor } from "../../testing/trpc";

it("lists every data operation with its offline and live coverage, to a signed-in seller only", async () => {
  const tag = randomBytes(4).toString("hex");
  const s = await seedMarketSeller(db, {
    slug: `cov-${tag}`,
    name: "Cov",
    hosts: [`cov-${tag}.test`],
    email: `cov-${tag}@cov.test`,
    password: "pw-123456",
    payTo: null,
    signingSecret: null,
  });
  const res = await createCaller(sessionFor(s.userId, s.sellerId)).coverage.operations();
  expect(res.running).toBe("embedded");
  expect(res.operations.map((o) => o.key).sort()).toEqual(OPERATIONS.map((o) => o.key).sort());
  for (const op of OPERATIONS) {
    const row = res.operations.find((o) => o.key === op.key)!;
    expect(row).toMatchObject({ path: op.contract.path, service: op.service });
    expect(row.embedded).toEqual(op.coverage("embedded", { feeds: archiveFeeds() }));
    expect(row.live).toEqual(op.coverage("live", { feeds: archiveFeeds() }));
  }
  expect(res.operations.find((o) => o.key === "economy_series")!.embedded!.entities!.find((e) => e.name === "DGS3MO")).toEqual({
    name: "DGS3MO",
    first_date: "2000-01-03",
    last_date: "2021-01-04",
  });
  await expect(createCaller({ session: null }).coverage.operations()).rejects.toMatchObject({ code: "UNAUTHORIZED" });
});
