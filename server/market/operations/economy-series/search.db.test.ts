// What an agent types to find economic data finds the priced series operation first (/openapi.json?q=..., through the
// route handler, on a freshly seeded storefront), and the free listing is found too.
import { randomBytes } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import * as openapiRoute from "../../../../app/openapi.json/route";
import { seedMarketSeller } from "../../../../prisma/seed";
import { db } from "../../../db/client";

type Handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;
let host = "";

beforeAll(async () => {
  const slug = `econ-search-${randomBytes(3).toString("hex")}`;
  host = `${slug}.test`;
  await seedMarketSeller(db, { slug, name: "Econ search", hosts: [host], email: `${slug}@econ.test`, password: "pw-123456", payTo: null, signingSecret: null });
});

async function ranked(q: string): Promise<string[]> {
  const res = await (openapiRoute.GET as Handler)(new Request(`http://${host}/openapi.json?q=${encodeURIComponent(q)}`, { headers: { host } }), {
    params: Promise.resolve({}),
  });
  const doc = (await res.json()) as { paths: Record<string, Record<string, { operationId: string; "x-search-score": number }>> };
  return Object.values(doc.paths)
    .flatMap((ops) => Object.values(ops))
    .sort((a, b) => b["x-search-score"] - a["x-search-score"])
    .map((o) => o.operationId);
}

describe("searching for economic data", () => {
  it.each(["cpi", "fed funds", "10-year", "unemployment", "payrolls", "debt", "treasury yield", "united states gdp"])(
    "?q=%s finds economy_series first",
    async (q) => {
      expect((await ranked(q))[0]).toBe("economy_series");
    },
  );

  // GDP and inflation are on two shelves now: the US series here, and every country's in the World Bank indicators.
  // Asked without a country, both are the first two answers (which first is the search's to weigh).
  it.each(["gdp", "inflation"])("?q=%s finds the two macro operations first: economy_series and world_bank_indicators", async (q) => {
    expect((await ranked(q)).slice(0, 2).sort()).toEqual(["economy_series", "world_bank_indicators"]);
  });

  it("?q=economic series list finds the free listing first", async () => {
    expect((await ranked("list economic series"))[0]).toBe("economy_series_list");
  });
});
