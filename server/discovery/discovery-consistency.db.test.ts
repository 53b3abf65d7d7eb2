// One price table: every priced operation has the same price and the same rails in every discovery document
// (OpenAPI's x-payment-info, the manifest, /.well-known/x402, /llms.txt and the MCP tool list), and a price change in
// the console shows in all of them on the next request. Each document is read through its own route handler.
import { randomBytes } from "node:crypto";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { beforeAll, describe, expect, it } from "vitest";
import * as x402Route from "../../app/.well-known/x402/route";
import * as llmsRoute from "../../app/llms.txt/route";
import * as manifestRoute from "../../app/manifest.json/route";
import * as mcpRoute from "../../app/mcp/route";
import * as openapiRoute from "../../app/openapi.json/route";
import { seedMarketSeller } from "../../prisma/seed";
import { anvilAddress } from "../../scripts/lib/local-chain";
import { changeMeterPrice } from "../price-changes/change-meter-price";
import { getSellerOverview } from "../catalog/get-seller-overview";
import { db } from "../db/client";
import { parseUsd } from "../lib/money";
import { OPERATIONS } from "../market/operations";
import { LLMS_OPERATION_LINE } from "./llms-txt";

type Handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;
/** What a document says one operation costs: micro-USD and the rails that take it. */
type Price = { micros: string; rails: string[] };
type Table = Record<string, Price>;

let host: string;
let sellerId: string;
let userId: string;

function get(handler: unknown, url: string, init: RequestInit = {}): Promise<Response> {
  const u = new URL(url, `http://${host}`);
  const headers = new Headers(init.headers);
  headers.set("host", host);
  return (handler as Handler)(new Request(u, { ...init, headers }), { params: Promise.resolve({}) });
}

const micros = (usd: string) => parseUsd(usd)!.toString();

async function fromOpenApi(): Promise<{ table: Table; pathToKey: Map<string, string> }> {
  const table: Table = {};
  const pathToKey = new Map<string, string>();
  let url: string | null = "/openapi.json";
  while (url) {
    const doc = (await (await get(openapiRoute.GET, url)).json()) as {
      info: { "x-next"?: string };
      paths: Record<string, Record<string, { operationId: string; "x-payment-info"?: { amountMicros: string; protocols: string[] } }>>;
    };
    for (const [path, ops] of Object.entries(doc.paths))
      for (const op of Object.values(ops)) {
        pathToKey.set(path, op.operationId);
        const info = op["x-payment-info"];
        if (info && BigInt(info.amountMicros) > 0n) table[op.operationId] = { micros: info.amountMicros, rails: info.protocols };
      }
    url = doc.info["x-next"] ?? null;
  }
  return { table, pathToKey };
}

async function fromManifest(): Promise<Table> {
  const doc = (await (await get(manifestRoute.GET, "/manifest.json")).json()) as {
    services: { operations: { key: string; priceUsd: string | null; protocols: string[] }[] }[];
  };
  const table: Table = {};
  for (const s of doc.services)
    for (const o of s.operations) if (o.priceUsd && BigInt(micros(o.priceUsd)) > 0n) table[o.key] = { micros: micros(o.priceUsd), rails: o.protocols };
  return table;
}

async function fromX402(pathToKey: Map<string, string>): Promise<{ http: Table; mcp: Table }> {
  const doc = (await (await get(x402Route.GET, "/.well-known/x402")).json()) as {
    items: {
      type: string;
      accepts: { amount: string }[];
      input: { routeTemplate?: string; toolName?: string };
      "x-payment-info": { amountMicros: string; protocols: string[] };
    }[];
  };
  const http: Table = {};
  const mcp: Table = {};
  for (const i of doc.items) {
    // The advisory x402 offer states the same amount as the price table's entry.
    expect(i.accepts[0]!.amount).toBe(i["x-payment-info"].amountMicros);
    const price = { micros: i.accepts[0]!.amount, rails: i["x-payment-info"].protocols };
    if (i.type === "http") http[pathToKey.get(i.input.routeTemplate!.replace(/:([A-Za-z_]\w*)/g, "{$1}"))!] = price;
    else mcp[i.input.toolName!] = price;
  }
  return { http, mcp };
}

async function fromLlmsTxt(pathToKey: Map<string, string>): Promise<{ table: Table; tools: Record<string, string> }> {
  const text = await (await get(llmsRoute.GET, "/llms.txt")).text();
  const table: Table = {};
  const tools: Record<string, string> = {};
  for (const line of text.split("\n")) {
    const m = LLMS_OPERATION_LINE.exec(line);
    if (!m) continue;
    const key = pathToKey.get(m[2]!)!;
    table[key] = { micros: micros(m[3]!), rails: m[5]!.split(", ") };
    tools[key] = m[6]!;
  }
  return { table, tools };
}

async function fromMcpTools(): Promise<Table> {
  const fetchRoute: typeof fetch = async (input, init) => {
    const req = new Request(input instanceof Request ? input : String(input), init);
    return get((mcpRoute as unknown as Record<string, Handler>)[req.method], req.url, { method: req.method, headers: req.headers, body: await req.text() });
  };
  const client = new Client({ name: "consistency-test", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`http://${host}/mcp`), { fetch: fetchRoute }));
  const table: Table = {};
  for (const t of (await client.listTools()).tools) {
    const info = t._meta?.["x-payment-info"] as { priceUsd: string; amountMicros: string; protocols: string[] } | undefined;
    if (!info) continue;
    // The description a model reads states the same price.
    expect(t.description).toContain(`Costs ${info.priceUsd} USD per call`);
    table[t.name] = { micros: info.amountMicros, rails: info.protocols };
  }
  await client.close();
  return table;
}

/** Every document's price table, read now; each must equal OpenAPI's. */
async function readAll() {
  const { table: openapi, pathToKey } = await fromOpenApi();
  const x402 = await fromX402(pathToKey);
  const llms = await fromLlmsTxt(pathToKey);
  const all = { openapi, manifest: await fromManifest(), x402Http: x402.http, x402Mcp: x402.mcp, llms: llms.table, mcp: await fromMcpTools() };
  // /.well-known/x402 leaves out what this offline instance refuses before any payment (a live-only operation): a
  // crawler would find no 402 there. Everything else it lists at OpenAPI's price and rails.
  const refused = OPERATIONS.filter((o) => o.liveOnly).map((o) => o.key);
  const buyable = Object.fromEntries(Object.entries(openapi).filter(([k]) => !refused.includes(k)));
  for (const [name, table] of Object.entries(all)) expect(table, `${name} against openapi`).toEqual(name.startsWith("x402") ? buyable : openapi);
  // The tool llms.txt names for an operation is the tool that sells it.
  expect(Object.keys(llms.tools).every((k) => llms.tools[k] === k)).toBe(true);
  return openapi;
}

beforeAll(async () => {
  const tag = `consistency-${randomBytes(4).toString("hex")}`;
  host = `${tag}.test`;
  ({ sellerId, userId } = await seedMarketSeller(db, {
    slug: tag,
    name: `Store ${tag}`,
    hosts: [host],
    email: `${tag}@seller.test`,
    password: "pw-12345678",
    payTo: anvilAddress(10),
    signingSecret: "s".repeat(32),
  }));
});

describe("one price table", () => {
  it("every priced operation has the same price and rails in OpenAPI, the manifest, /.well-known/x402, /llms.txt and the MCP tools", async () => {
    const table = await readAll();
    // Every operation of the registry priced above $0 (the shelf grows by one folder and one line; this follows).
    expect(Object.keys(table).sort()).toEqual(
      OPERATIONS.filter((o) => o.meter.priceMicros > 0n)
        .map((o) => o.key)
        .sort(),
    );
    expect(table.aggregates).toEqual({ micros: "20000", rails: ["x402", "mpp", "credits"] });
    expect(table.backtest).toEqual({ micros: "500000", rails: ["x402", "mpp", "card", "credits"] });
  });

  it("a price change in the console shows in all of them at once, rails included (card leaves below $0.50)", async () => {
    const meters = (await getSellerOverview(sellerId)).meters;
    await changeMeterPrice({ sellerId, actorId: userId, meterId: meters.find((m) => m.key === "aggregates")!.id, amountUsd: "0.031" });
    await changeMeterPrice({ sellerId, actorId: userId, meterId: meters.find((m) => m.key === "backtest")!.id, amountUsd: "0.45" });
    const table = await readAll();
    expect(table.aggregates).toEqual({ micros: "31000", rails: ["x402", "mpp", "credits"] });
    expect(table.backtest).toEqual({ micros: "450000", rails: ["x402", "mpp", "credits"] });
    expect(table.basis).toEqual({ micros: "50000", rails: ["x402", "mpp", "credits"] });
  });
});
