// The conformance battery's MCP leg (rail-conformance.ts): a rail whose kit says how its MCP clients pay is paid for a
// tool call through /mcp with no code of the MCP layer naming it (the rail's `mcp` binding carries its proof into the
// headers its readProof reads). Asserted for every such rail: the unpaid tool call names the rail; the proof in `_meta`
// is charged once, served with the rail's receipt entries and ours; the same proof again is served, never charged
// again; a `_meta` value that is not the binding's proof is refused in the binding's terms, never an internal error,
// and charges nothing.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { McpError, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import * as mcpRoute from "../../app/mcp/route";
import { db } from "../db/client";
import { railFor } from "../payments/rails";
import type { GatewayStack } from "./gateway";

/** How a rail's MCP clients pay a tool call. */
export type McpWay = {
  tool: string;
  args: Record<string, unknown>;
  /** The `_meta` of a fresh valid proof, made from the unpaid tool call's payment-required result. */
  pay(unpaid: CallToolResult): Promise<Record<string, unknown>>;
  /** The `_meta` entries a charged answer carries for this rail (beside ours, `svc-receipt`). */
  receiptMeta: string[];
  /** Values under the binding's key that are not its proof. */
  malformed: unknown[];
};

type RouteModule = Record<string, (req: Request, seg: { params: Promise<Record<string, string>> }) => Promise<Response>>;

async function connect(host: string): Promise<Client> {
  const fetchMcp: typeof fetch = async (input, init) => {
    const req = new Request(input instanceof Request ? input : String(input), init);
    const headers = new Headers(req.headers);
    headers.set("host", host);
    const body = ["GET", "HEAD"].includes(req.method) ? undefined : await req.text();
    return (mcpRoute as unknown as RouteModule)[req.method]!(new Request(req.url, { method: req.method, headers, body }), { params: Promise.resolve({}) });
  };
  const client = new Client({ name: "rail-conformance", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`http://${host}/mcp`), { fetch: fetchMcp }));
  return client;
}

const billingOf = (r: CallToolResult) => (r._meta?.["svc-billing"] ?? {}) as Record<string, string>;

export function describeMcpWay(rail: string, way: McpWay, stack: GatewayStack): void {
  describe("an MCP tool call", () => {
    const call = async (meta?: Record<string, unknown>) => {
      const client = await connect(stack.seller.host);
      try {
        return (await client.callTool({ name: way.tool, arguments: way.args, ...(meta ? { _meta: meta } : {}) })) as CallToolResult;
      } finally {
        await client.close();
      }
    };

    it("is paid with the proof in _meta, charged once, and the same proof again is served, never charged again", async () => {
      const unpaid = await call();
      expect(unpaid.isError).toBe(true);
      expect(unpaid._meta?.["svc-http-status"]).toBe(402);
      expect((unpaid.structuredContent as { payment: { rails: string[] } }).payment.rails).toContain(rail);
      const proof = await way.pay(unpaid);
      const callsBefore = stack.upstream.state.calls;

      const paid = await call(proof);
      expect(paid.isError, JSON.stringify(paid.structuredContent)).toBeFalsy();
      expect(paid._meta?.["svc-http-status"]).toBe(200);
      expect(billingOf(paid)).toMatchObject({ status: "charged", rail });
      for (const key of [...way.receiptMeta, "svc-receipt"]) expect(paid._meta?.[key], key).toBeTruthy();
      const paymentId = paid._meta?.["svc-payment-id"] as string;
      expect((await db.payment.findUniqueOrThrow({ where: { id: paymentId } })).rail).toBe(railFor(rail).name);
      expect(stack.upstream.state.calls - callsBefore).toBe(1);

      const again = await call(proof);
      expect(again.isError).toBeFalsy();
      expect(billingOf(again)).toMatchObject({ status: "charged", replay: "true", payment: paymentId });
      expect(stack.upstream.state.calls - callsBefore).toBe(1);
      expect(await db.ledgerEntry.count({ where: { paymentId } })).toBeLessThanOrEqual(1);
    });

    it("refuses a _meta value that is not its proof in the binding's terms, never an internal error, charging nothing", async () => {
      const key = Object.keys(await way.pay(await call()))[0]!;
      const callsBefore = stack.upstream.state.calls;
      for (const value of way.malformed) {
        const answer = await call({ [key]: value }).catch((e: unknown) => e);
        if (answer instanceof McpError) expect([-32602, -32043], JSON.stringify(value)).toContain(answer.code);
        else {
          expect((answer as CallToolResult).isError, JSON.stringify(value)).toBe(true);
          const status = (answer as CallToolResult)._meta?.["svc-http-status"] as number;
          expect(status >= 400 && status < 500, `${status} for ${JSON.stringify(value)}`).toBe(true);
        }
      }
      expect(stack.upstream.state.calls - callsBefore).toBe(0);
    });
  });
}
