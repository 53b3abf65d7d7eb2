// The searches an agent makes for screeners, scores, crypto, perpetuals, options and more stocks find a priced
// operation that sells it first, over the /openapi.json route (the ranking the guide and the MCP search use too).
import { randomBytes } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import * as openapiRoute from "../../app/openapi.json/route";
import { seedMarketSeller } from "../../prisma/seed";
import { db } from "../db/client";

type Handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;
type Op = { operationId: string; description: string; "x-payment-info"?: { amountMicros: string } };
let host = "";

beforeAll(async () => {
  const tag = `shelf-search-${randomBytes(3).toString("hex")}`;
  host = `${tag}.test`;
  await seedMarketSeller(db, { slug: tag, name: tag, hosts: [host], email: `${tag}@seller.test`, password: "pw-12345678", payTo: null, signingSecret: null });
});

async function search(q: string): Promise<Op[]> {
  const res = await (openapiRoute.GET as Handler)(new Request(`http://${host}/openapi.json?q=${encodeURIComponent(q)}`, { headers: { host } }), {
    params: Promise.resolve({}),
  });
  expect(res.status).toBe(200);
  const doc = (await res.json()) as { paths: Record<string, Record<string, Op>> };
  return Object.values(doc.paths).flatMap((p) => Object.values(p));
}

describe("the shelf's searches rank the operation that sells it first", () => {
  it.each([
    ["screener", ["screener"]],
    ["stock screener", ["screener"]],
    ["s&p 500", ["screener", "value_score"]],
    ["p/e", ["screener", "value_score"]],
    ["dividend", ["screener", "value_score"]],
    ["market cap", ["screener"]],
    ["fundamentals", ["screener"]],
    ["value", ["value_score"]],
    ["value score", ["value_score"]],
    ["cheap stocks", ["value_score"]],
    ["crypto", ["crypto_bars"]],
    ["crypto prices", ["crypto_bars"]],
    ["bitcoin", ["crypto_bars"]],
    ["btc", ["crypto_bars"]],
    ["ethereum", ["crypto_bars"]],
    ["perps", ["perps"]],
    ["perpetuals", ["perps"]],
    ["perpetual futures", ["perps"]],
    ["funding", ["perps", "perp_funding"]],
    ["funding rate", ["perps", "perp_funding"]],
    ["funding history", ["perp_funding"]],
    ["open interest", ["perps"]],
    ["hyperliquid", ["perps", "perp_funding"]],
    ["options", ["options_chain"]],
    ["option chain", ["options_chain"]],
    ["implied volatility", ["options_chain"]],
    ["stock prices", ["aggregates"]],
    ["msft", ["aggregates"]],
    ["spy", ["aggregates"]],
    ["etf", ["aggregates"]],
  ])("?q=%s", async (q, expected) => {
    const [first] = await search(q);
    expect(expected).toContain(first?.operationId);
    expect(BigInt(first!["x-payment-info"]!.amountMicros)).toBeGreaterThan(0n);
  });

  it("the options chain says it is live-only where an agent finds it", async () => {
    const [first] = await search("options chain");
    expect(first!.description).toContain("Coverage: Live-only");
  });
});
