// /.well-known/x402 and /llms.txt: their shape, and ETags like the other discovery documents (304 until the catalog
// changes).
import { randomBytes } from "node:crypto";
import { isPaymentRequirements } from "@x402/core/schemas";
import { describe, expect, it } from "vitest";
import * as x402JsonRoute from "../../app/.well-known/x402.json/route";
import * as x402Route from "../../app/.well-known/x402/route";
import * as llmsRoute from "../../app/llms.txt/route";
import { seedMarketSeller } from "../../prisma/seed";
import { anvilAddress } from "../../scripts/lib/local-chain";
import { changeMeterPrice } from "../price-changes/change-meter-price";
import { getSellerOverview } from "../catalog/get-seller-overview";
import { db } from "../db/client";
import { OPERATIONS, operationExamples } from "../market/operations";
import { LLMS_FREE_OPERATION_LINE, LLMS_OPERATION_LINE } from "./llms-txt";

type Handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;
const PAY_TO = anvilAddress(10);
// The registry's operations at their default prices: the shelf grows by one folder and one line, and these follow.
const PRICED = OPERATIONS.filter((o) => o.meter.priceMicros > 0n)
  .map((o) => o.key)
  .sort();
const FREE = OPERATIONS.filter((o) => o.meter.priceMicros === 0n)
  .map((o) => o.key)
  .sort();

function get(handler: Handler, host: string, path: string, headers: Record<string, string> = {}): Promise<Response> {
  return handler(new Request(`http://${host}${path}`, { headers: { ...headers, host } }), { params: Promise.resolve({}) });
}

async function seller(tag: string, payTo: string | null = PAY_TO) {
  const slug = `docs-${tag}-${randomBytes(3).toString("hex")}`;
  const s = await seedMarketSeller(db, {
    slug,
    name: `Docs ${tag}`,
    hosts: [`${slug}.test`],
    email: `${slug}@docs.test`,
    password: "pw-123456",
    payTo,
    signingSecret: null,
  });
  return { ...s, host: `${slug}.test` };
}

type X402Item = {
  resource: { url: string; description: string; mimeType: string };
  type: string;
  accepts: Record<string, unknown>[];
  input: Record<string, unknown>;
  "x-payment-info": { priceUsd: string; protocols: string[] };
};

describe("/.well-known/x402", () => {
  it("lists every priced operation twice, as its HTTP route and as its MCP tool, with an advisory x402 offer at its price", async () => {
    const s = await seller("x402");
    const res = await get(x402Route.GET as Handler, s.host, "/.well-known/x402");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("application/json");
    const doc = (await res.json()) as { x402Version: number; items: X402Item[]; version: number; resources: string[]; instructions: string };
    expect(doc.x402Version).toBe(2);
    // Every priced operation x (http, mcp), but what this offline instance refuses before any payment (live-only).
    expect(doc.items).toHaveLength(2 * PRICED.filter((k) => !OPERATIONS.find((o) => o.key === k)!.liveOnly).length);
    const http = doc.items.find((i) => i.type === "http" && i.input.routeTemplate === "/api/v1/aggregates/:ticker")!;
    // A URL that answers (the operation's example call), not the template: a crawler probing it gets the 402.
    const example = `http://${s.host}${operationExamples("aggregates")!.request}`;
    expect(example).not.toContain(":ticker");
    expect(http).toMatchObject({
      resource: { url: example, mimeType: "application/json", serviceName: "stock-quotes" },
      input: { method: "GET", routeTemplate: "/api/v1/aggregates/:ticker", pathParams: { properties: { ticker: { type: "string" } } } },
      "x-payment-info": { priceUsd: "0.020000", protocols: ["x402", "mpp", "credits"] },
    });
    // Every HTTP item's URL is its operation's example call, and the same URLs are the crawlers' `resources` list.
    const httpItems = doc.items.filter((i) => i.type === "http");
    for (const i of httpItems) expect(i.resource.url).not.toMatch(/\/:[a-z_]+/);
    expect(doc).toMatchObject({ version: 1, resources: httpItems.map((i) => i.resource.url) });
    expect(doc.instructions).toContain(`http://${s.host}/openapi.json`);
    expect((http.input.queryParams as { properties: Record<string, unknown> }).properties).toHaveProperty("limit");
    expect(http.accepts).toHaveLength(1);
    expect(isPaymentRequirements(http.accepts[0])).toBe(true);
    expect(http.accepts[0]).toMatchObject({
      scheme: "exact",
      network: "eip155:8453",
      amount: "20000",
      payTo: PAY_TO,
      extra: { name: "USD Coin", version: "2" },
    });
    const mcp = doc.items.find((i) => i.type === "mcp" && i.input.toolName === "backtest")!;
    expect(mcp).toMatchObject({ resource: { url: `http://${s.host}/mcp` }, input: { transport: "streamable-http", inputSchema: { type: "object" } } });
    expect(mcp.accepts[0]).toMatchObject({ amount: "500000" });
    // The canonical location of the proposal serves the same document.
    const json = await get(x402JsonRoute.GET as Handler, s.host, "/.well-known/x402.json");
    expect(await json.json()).toEqual(doc);
  });

  it("offers nothing to pay while the seller has no payout address", async () => {
    const s = await seller("nopay", null);
    const doc = (await (await get(x402Route.GET as Handler, s.host, "/.well-known/x402")).json()) as { items: X402Item[] };
    expect(doc.items.length).toBeGreaterThan(0);
    expect(doc.items.every((i) => i.accepts.length === 0)).toBe(true);
  });
});

describe("/llms.txt", () => {
  it("is Markdown stating each priced operation's price, meter, rails and MCP tool, how to pay, and how to connect over MCP", async () => {
    const s = await seller("llms");
    const res = await get(llmsRoute.GET as Handler, s.host, "/llms.txt");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/markdown; charset=utf-8");
    const text = await res.text();
    expect(text.startsWith("# Docs llms\n\n> ")).toBe(true);
    const ops = text
      .split("\n")
      .map((l) => LLMS_OPERATION_LINE.exec(l))
      .filter((m) => m !== null);
    expect(ops.map((m) => m[6]).sort()).toEqual(PRICED);
    // A data operation sold at $0 has its own line: free, its meter, its tool.
    const free = text
      .split("\n")
      .map((l) => LLMS_FREE_OPERATION_LINE.exec(l))
      .filter((m) => m !== null);
    expect(free.map((m) => m[4]).sort()).toEqual(FREE);
    const backtest = ops.find((m) => m[2] === "/api/v1/backtest/{ticker}")!;
    expect([backtest[1], backtest[3], backtest[4], backtest[5]]).toEqual(["GET", "0.500000", "backtest", "x402, mpp, card, credits"]);
    for (const section of ["## How to pay", "## MCP", "## Discovery", "## Plans (prepaid credit)"]) expect(text).toContain(section);
    expect(text).toContain(`- Endpoint: http://${s.host}/mcp (Streamable HTTP`);
    expect(text).toContain('params._meta["org.paymentauth/credential"]');
    expect(text).toContain('params._meta["x402/payment"]');
  });
});

describe("ETags of /.well-known/x402 and /llms.txt", () => {
  for (const [name, handler, path] of [
    ["x402", x402Route.GET, "/.well-known/x402"],
    ["llms", llmsRoute.GET, "/llms.txt"],
  ] as const) {
    it(`${path}: a stable tag, 304 without a body when it matches, a new tag after a price change`, async () => {
      const s = await seller(`etag-${name}`);
      const first = await get(handler as Handler, s.host, path);
      const etag = first.headers.get("etag")!;
      expect(etag).toMatch(/^"[\w-]{32}"$/);
      expect(first.headers.get("cache-control")).toBe("no-cache");
      expect((await get(handler as Handler, s.host, path)).headers.get("etag")).toBe(etag);
      const revalidated = await get(handler as Handler, s.host, path, { "if-none-match": etag });
      expect(revalidated.status).toBe(304);
      expect(await revalidated.text()).toBe("");

      const meter = (await getSellerOverview(s.sellerId)).meters.find((m) => m.key === "aggregates")!;
      await changeMeterPrice({ sellerId: s.sellerId, actorId: s.userId, meterId: meter.id, amountUsd: "0.031" });
      const changed = await get(handler as Handler, s.host, path, { "if-none-match": etag });
      expect(changed.status).toBe(200);
      expect(changed.headers.get("etag")).not.toBe(etag);
    });
  }
});
