// Discovery documents revalidate by ETag: the same bytes give 304, a catalog change gives a new tag.
import { describe, expect, it } from "vitest";
import * as manifestRoute from "../../app/manifest.json/route";
import * as openapiRoute from "../../app/openapi.json/route";
import * as servicesRoute from "../../app/services/route";
import { seedMarketSeller } from "../../prisma/seed";
import { changeMeterPrice } from "../price-changes/change-meter-price";
import { getSellerOverview } from "../catalog/get-seller-overview";
import { db } from "../db/client";
import { matchesIfNoneMatch } from "./discovery";

type Handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;

function get(handler: Handler, host: string, path: string, headers: Record<string, string> = {}, method = "GET"): Promise<Response> {
  return handler(new Request(`http://${host}${path}`, { method, headers: { ...headers, host } }), { params: Promise.resolve({}) });
}

async function seller(tag: string) {
  return seedMarketSeller(db, {
    slug: `etag-${tag}`,
    name: `ETag ${tag}`,
    hosts: [`etag-${tag}.test`],
    email: `${tag}@etag.test`,
    password: "pw-123456",
    payTo: null,
    signingSecret: null,
  });
}

describe("If-None-Match", () => {
  it("compares entity tags weakly, in lists, and honours *", () => {
    expect(matchesIfNoneMatch(null, '"a"')).toBe(false);
    expect(matchesIfNoneMatch('"a"', '"a"')).toBe(true);
    expect(matchesIfNoneMatch('W/"a"', '"a"')).toBe(true);
    expect(matchesIfNoneMatch('"b", W/"a"', '"a"')).toBe(true);
    expect(matchesIfNoneMatch("*", '"a"')).toBe(true);
    expect(matchesIfNoneMatch('"b"', '"a"')).toBe(false);
    expect(matchesIfNoneMatch('"ab"', '"a"')).toBe(false);
  });
});

describe("discovery ETags", () => {
  for (const [name, handler, path] of [
    ["/manifest.json", manifestRoute.GET, "/manifest.json"],
    ["/openapi.json", openapiRoute.GET, "/openapi.json"],
    ["/services", servicesRoute.GET, "/services"],
  ] as const) {
    it(`${name}: a stable tag, 304 without a body when it matches, a new tag after a price change`, async () => {
      const s = await seller(name.replace(/\W/g, ""));
      const host = `etag-${name.replace(/\W/g, "")}.test`;
      const first = await get(handler as Handler, host, path);
      expect(first.status).toBe(200);
      const etag = first.headers.get("etag")!;
      expect(etag).toMatch(/^"[\w-]{32}"$/);
      expect(first.headers.get("cache-control")).toBe("no-cache");
      expect((await get(handler as Handler, host, path)).headers.get("etag")).toBe(etag);

      const revalidated = await get(handler as Handler, host, path, { "if-none-match": etag });
      expect(revalidated.status).toBe(304);
      expect(await revalidated.text()).toBe("");
      expect(revalidated.headers.get("etag")).toBe(etag);
      expect(revalidated.headers.get("access-control-allow-origin")).toBe("*");
      expect(revalidated.headers.get("access-control-expose-headers")).toContain("ETag");
      expect((await get(handler as Handler, host, path, { "if-none-match": '"stale"' })).status).toBe(200);

      const meter = (await getSellerOverview(s.sellerId)).meters.find((m) => m.key === "aggregates")!;
      await changeMeterPrice({ sellerId: s.sellerId, actorId: s.userId, meterId: meter.id, amountUsd: "0.031" });
      const changed = await get(handler as Handler, host, path, { "if-none-match": etag });
      expect(changed.status).toBe(200);
      expect(changed.headers.get("etag")).not.toBe(etag);
    });
  }

  it("search results and pages are separate documents with their own tags", async () => {
    await seller("search");
    const host = "etag-search.test";
    const all = (await get(openapiRoute.GET as Handler, host, "/openapi.json")).headers.get("etag");
    const q = (await get(openapiRoute.GET as Handler, host, "/openapi.json?q=treasury")).headers.get("etag");
    expect(q).not.toBe(all);
  });
});
