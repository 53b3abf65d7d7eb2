// What an agent types to find forex, energy and World Bank data: /openapi.json?q=... over the route handler, on a
// freshly seeded storefront, ranks the priced operation that sells it first (inflation: among the first two, since US
// CPI series may rank beside World Bank inflation).
import { randomBytes } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import * as openapiRoute from "../../app/openapi.json/route";
import { seedMarketSeller } from "../../prisma/seed";
import { anvilAddress } from "../../scripts/lib/local-chain";
import { db } from "../db/client";

type Handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;
type Operation = { operationId: string; "x-payment-info"?: { amountMicros: string } };
let host = "";

beforeAll(async () => {
  const slug = `search-${randomBytes(3).toString("hex")}`;
  host = `${slug}.test`;
  await seedMarketSeller(db, {
    slug,
    name: `Search ${slug}`,
    hosts: [host],
    email: `${slug}@search.test`,
    password: "pw-123456",
    payTo: anvilAddress(10),
    signingSecret: null,
  });
});

/** The operations /openapi.json?q= answers, best first (its paths are in rank order). */
async function ranked(q: string): Promise<Operation[]> {
  const path = `/openapi.json?q=${encodeURIComponent(q)}`;
  const res = await (openapiRoute.GET as Handler)(new Request(`http://${host}${path}`, { headers: { host } }), { params: Promise.resolve({}) });
  expect(res.status).toBe(200);
  const doc = (await res.json()) as { paths: Record<string, Record<string, Operation>> };
  return Object.values(doc.paths).flatMap((ops) => Object.values(ops));
}

describe("search finds the forex, energy and World Bank operations", () => {
  it.each([
    ["eur", "forex_rates"],
    ["exchange rate", "forex_rates"],
    ["EUR/JPY cross rate", "forex_rates"],
    ["crude", "energy_prices"],
    ["oil", "energy_prices"],
    ["natural gas", "energy_prices"],
    ["gasoline", "energy_prices"],
    ["wti", "energy_prices"],
    ["world bank gdp", "world_bank_indicators"],
    ["population", "world_bank_indicators"],
  ])("q=%s ranks %s first, priced", async (q, key) => {
    const ops = await ranked(q);
    expect(ops[0]?.operationId, ops.map((o) => o.operationId).join(", ")).toBe(key);
    expect(BigInt(ops[0]!["x-payment-info"]!.amountMicros)).toBeGreaterThan(0n);
  });

  it("q=inflation ranks world_bank_indicators among the first two", async () => {
    const ops = await ranked("inflation");
    expect(ops.slice(0, 2).map((o) => o.operationId)).toContain("world_bank_indicators");
  });
});
