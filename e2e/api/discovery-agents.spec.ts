// The discovery documents agents look for besides OpenAPI, served by the built app: /.well-known/x402 (x402 #2582 /
// PR #2646) and /llms.txt, with ETags, stating the manifest's prices.
import { expect, test } from "@playwright/test";

test("/.well-known/x402 lists each priced route and MCP tool with an x402 offer at the manifest's price, and revalidates by ETag", async ({ request }) => {
  const manifest = (await (await request.get("/manifest.json")).json()) as {
    services: { operations: { key: string; path: string; priceUsd: string | null }[] }[];
  };
  const aggregates = manifest.services.flatMap((s) => s.operations).find((o) => o.key === "aggregates")!;
  const res = await request.get("/.well-known/x402");
  expect(res.status()).toBe(200);
  const doc = (await res.json()) as { x402Version: number; items: { type: string; input: Record<string, string>; accepts: { amount: string }[] }[] };
  expect(doc.x402Version).toBe(2);
  const http = doc.items.find((i) => i.type === "http" && i.input.routeTemplate === "/api/v1/aggregates/:ticker")!;
  const mcp = doc.items.find((i) => i.type === "mcp" && i.input.toolName === "aggregates")!;
  const micros = String(Math.round(Number(aggregates.priceUsd) * 1_000_000));
  expect(http.accepts[0]!.amount).toBe(micros);
  expect(mcp.accepts[0]!.amount).toBe(micros);
  const etag = res.headers()["etag"]!;
  expect((await request.get("/.well-known/x402", { headers: { "if-none-match": etag } })).status()).toBe(304);
  expect(await (await request.get("/.well-known/x402.json")).json()).toEqual(doc);
});

test("/.well-known/x402 lists URLs that answer: each HTTP item's and each of `resources` is called unpaid and answers 402 with an x402 offer", async ({
  request,
}) => {
  const doc = (await (await request.get("/.well-known/x402")).json()) as {
    items: { type: string; resource: { url: string }; input: { routeTemplate?: string } }[];
    version: number;
    resources: string[];
  };
  const http = doc.items.filter((i) => i.type === "http");
  expect(doc.version).toBe(1);
  expect(doc.resources).toEqual(http.map((i) => i.resource.url));
  for (const item of http) {
    expect(item.resource.url, item.input.routeTemplate).not.toMatch(/\/:[a-z_]+/);
    const res = await request.get(item.resource.url);
    expect(res.status(), item.resource.url).toBe(402);
    expect(res.headers()["payment-required"], item.resource.url).toBeTruthy();
  }
});

test("/llms.txt tells a model what is sold, at what price, how to pay and how to connect over MCP", async ({ request, baseURL }) => {
  const res = await request.get("/llms.txt");
  expect(res.status()).toBe(200);
  expect(res.headers()["content-type"]).toContain("text/markdown");
  const text = await res.text();
  expect(text).toMatch(/^# .+\n\n> /);
  expect(text).toContain("- [GET /api/v1/avg-interest-rates]");
  expect(text).toContain("0.010000 USD per request, meter `avg_interest_rates`");
  expect(text).toContain(`- Endpoint: ${baseURL}/mcp`);
  expect((await request.get("/llms.txt", { headers: { "if-none-match": res.headers()["etag"]! } })).status()).toBe(304);
});
