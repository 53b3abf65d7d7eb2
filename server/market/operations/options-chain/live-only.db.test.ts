// The live-only refusal from the agent's side, offline (MARKET_PROVIDER=embedded): over HTTP and over MCP, a call to the
// options chain is answered 403 not_included (live_only) with no 402, no payment challenge, whatever proof it carries,
// and leaves no payment row; bad parameters still answer 400 first.
import { randomBytes } from "node:crypto";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { isPaymentRequired } from "@x402/core/schemas";
import { beforeAll, describe, expect, it } from "vitest";
import * as mcpRoute from "../../../../app/mcp/route";
import { seedMarketSeller } from "../../../../prisma/seed";
import { anvilAddress } from "../../../../scripts/lib/local-chain";
import { db } from "../../../db/client";
import { callGateway } from "../../../testing/gateway";

type Handler = (req: Request, seg: { params: Promise<Record<string, string>> }) => Promise<Response>;
let host = "";
let sellerId = "";

beforeAll(async () => {
  const tag = `opt-${randomBytes(4).toString("hex")}`;
  host = `${tag}.test`;
  ({ sellerId } = await seedMarketSeller(db, {
    ...{ slug: tag, name: `Options ${tag}`, hosts: [host], email: `${tag}@seller.test`, password: "pw-12345678" },
    ...{ payTo: anvilAddress(10), signingSecret: "s".repeat(32) },
  }));
});

const payments = () => db.payment.count({ where: { sellerId, operationKey: "options_chain" } });

describe("options chain offline, as an agent sees it", () => {
  it("HTTP: 403 live_only, no 402 and no challenge, with or without a payment proof; a bad parameter is still a 400", async () => {
    const proofs: Record<string, string>[] = [{}, { "payment-signature": "eyJ4NDAyVmVyc2lvbiI6Mn0" }, { authorization: "Bearer not-a-token" }];
    for (const headers of proofs) {
      const res = await callGateway(host, "/api/v1/options/AAPL/chain?contract_type=call", { headers });
      expect(res.status).toBe(403);
      expect(res.headers.get("payment-required")).toBeNull();
      expect(res.headers.get("www-authenticate")).toBeNull();
      const body = (await res.json()) as Record<string, unknown>;
      expect(body).toMatchObject({ error: "not_included", reason: "live_only", operation: "options_chain" });
      expect(body.payment).toBeUndefined();
    }
    const bad = await callGateway(host, "/api/v1/options/AAPL/chain?limit=251");
    expect([bad.status, ((await bad.json()) as { parameter: string }).parameter]).toEqual([400, "limit"]);
    expect(await payments()).toBe(0);
  });

  it("MCP: the tool call is an error naming live_only, not a payment-required result", async () => {
    const client = new Client({ name: "options-live-only", version: "1.0.0" });
    const fetchRoute: typeof fetch = async (input, init) => {
      const req = new Request(input instanceof Request ? input : String(input), init);
      const headers = new Headers(req.headers);
      headers.set("host", host);
      const body = ["GET", "HEAD"].includes(req.method) ? undefined : await req.text();
      return (mcpRoute as unknown as Record<string, Handler>)[req.method]!(new Request(req.url, { method: req.method, headers, body }), {
        params: Promise.resolve({}),
      });
    };
    await client.connect(new StreamableHTTPClientTransport(new URL(`http://${host}/mcp`), { fetch: fetchRoute }));
    const tool = (await client.listTools()).tools.find((t) => t.name === "options_chain")!;
    expect(tool.description).toContain("Live-only");
    const res = (await client.callTool({ name: "options_chain", arguments: { underlying: "AAPL" } })) as CallToolResult;
    await client.close();
    expect(res.isError).toBe(true);
    expect(res.structuredContent).toMatchObject({ error: "not_included", reason: "live_only" });
    expect(isPaymentRequired(res.structuredContent)).toBe(false);
    expect(res._meta?.["org.paymentauth/payment-required"]).toBeUndefined();
    expect(await payments()).toBe(0);
  });
});
