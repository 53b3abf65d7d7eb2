// What an agent types to find SEC filings, congressional trades and market sentiment finds the priced operation first:
// /openapi.json?q=... over HTTP (the route handler, a seeded storefront), ranked by the discovery search.
import { beforeAll, describe, expect, it } from "vitest";
import * as openapiRoute from "../../app/openapi.json/route";
import { seedMarketSeller } from "../../prisma/seed";
import { db } from "../db/client";

type Handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;
const HOST = "search-shelf-part2.test";

beforeAll(async () => {
  await seedMarketSeller(db, {
    ...{ slug: "search-shelf-part2", name: "Search shelf part 2", hosts: [HOST], email: "search@shelf-part2.test", password: "pw-123456" },
    ...{ payTo: null, signingSecret: null },
  });
});

async function ranked(q: string): Promise<{ key: string; priced: boolean }[]> {
  const res = await (openapiRoute.GET as Handler)(new Request(`http://${HOST}/openapi.json?q=${q}`, { headers: { host: HOST } }), {
    params: Promise.resolve({}),
  });
  expect(res.status).toBe(200);
  const doc = (await res.json()) as { paths: Record<string, Record<string, { operationId: string; "x-payment-info"?: { amountMicros: string } }>> };
  return Object.values(doc.paths)
    .flatMap((p) => Object.values(p))
    .map((o) => ({ key: o.operationId, priced: BigInt(o["x-payment-info"]?.amountMicros ?? "0") > 0n }));
}

describe("discovery search finds the shelf's filings, congress and sentiment operations first", () => {
  it.each([
    ["filings", "sec_filings"],
    ["10-k", "sec_filings"],
    ["earnings", "sec_key_facts"],
    ["revenue", "sec_key_facts"],
    ["congress", "congress_trades"],
    ["senator%20trades", "congress_trades"],
    ["vix", "vix"],
    ["sentiment", "vix"],
    ["fear", "vix"],
    ["breadth", "sector_breadth"],
  ])("?q=%s ranks %s first, priced", async (q, key) => {
    const ops = await ranked(q);
    expect(ops[0]).toEqual({ key, priced: true });
  });
});
