// The conformance battery every data operation passes, run over every operation of the registry (and the fixture a
// test registers with one line: server/market/operations/conformance.db.test.ts), through the real gateway, discovery
// and the in-process market upstream, on one seller and one agent holding plan credit. For each operation:
//  - its contract, OpenAPI, the MCP tool, the manifest's meter and default price and llms.txt agree, coverage included;
//  - the guide recommends it for its goal;
//  - each value the contract refuses (just past a bound, or malformed) answers 400 naming the parameter, unpaid;
//  - seeded random values answer 4xx, never 5xx, unpaid and (those that pass validation) paid with plan credit;
//  - its example answers 200 with a body the contract accepts and the common envelope (`source`, `as_of`, `ticker`);
//    a live-only operation on offline providers instead answers every call 403 not_included (live_only) with no payment
//    asked: no 402, no payment row, the plan credit untouched;
//  - its archive feed, if it declares one, is captured and read back as the operation's own answer;
//  - its refused call, if it declares one, answers 403 or 404 unpaid and paid, and OpenAPI's x-example states both calls.
// An operation priced at $0 (a free listing) is held to the same, served where a priced one answers 402.
// Cheap by design: the documents are read once, no chain, a few hundred milliseconds per operation.
import { randomBytes } from "node:crypto";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { z } from "zod";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as guideRoute from "../../app/vendor/agent/guide/route";
import * as llmsRoute from "../../app/llms.txt/route";
import * as manifestRoute from "../../app/manifest.json/route";
import * as mcpRoute from "../../app/mcp/route";
import * as openapiRoute from "../../app/openapi.json/route";
import { seedMarketSeller } from "../../prisma/seed";
import { anvilAddress } from "../../scripts/lib/local-chain";
import { db } from "../db/client";
import { LLMS_FREE_OPERATION_LINE, LLMS_OPERATION_LINE } from "../discovery/llms-txt";
import { env, resetEnvForTests } from "../env";
import { newId } from "../lib/ids";
import { microsToUsd } from "../lib/money";
import { findArchiveDay } from "../market/archive/archive.queries";
import { captureArchive } from "../market/archive/capture-archive";
import type { FeedDef } from "../market/archive/feed";
import { archiveFeeds, exampleRequest, OPERATIONS } from "../market/operations";
import type { DataOperation } from "../market/operations/operation";
import { getMarketProviders } from "../market/providers/get-market-providers";
import { callGateway } from "./gateway";
import { registerAnonymous, routedStore } from "./identity-harness";
import { fuzzValue, onBounds, outOfBounds, paramsOf, requestFor } from "./operation-params";
import { testOperations } from "./operations";
import { rng } from "./random";

type Handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;
type Json = Record<string, any>;
type Answer = { status: number; body: Json | null };

/** The day the battery archives on: far from any real capture, the same on every run (a capture is never repeated). */
const ARCHIVE_DAY = "2093-03-01";
const FUZZ_ROUNDS = 16;
/** Paid calls per operation beyond its example: values on the bounds first, then random ones the gateway let through. */
const PAID_CALLS = 6;

export function describeOperationConformance(): void {
  const s = {
    host: "",
    sellerId: "",
    bearer: "",
    grantId: "",
    openapi: new Map<string, Json>(),
    manifest: {} as Json,
    tools: new Map<string, Json>(),
    llms: "",
    feeds: [] as FeedDef[],
  };
  const clientLimit = process.env.RATE_LIMIT_CLIENT_PER_MINUTE;
  const route = (handler: unknown, path: string) =>
    (handler as Handler)(new Request(`http://${s.host}${path}`, { headers: { host: s.host } }), { params: Promise.resolve({}) });

  beforeAll(async () => {
    // One client sending a few hundred unpaid calls a minute: the per-client budget is not what is under test here.
    process.env.RATE_LIMIT_CLIENT_PER_MINUTE = "1000000";
    resetEnvForTests();
    const tag = `ops-${randomBytes(4).toString("hex")}`;
    s.host = `${tag}.test`;
    // Seeded now, after the test registered its operations: the catalog is the registry's, served by the built-in upstream.
    const { sellerId } = await seedMarketSeller(db, {
      ...{ slug: tag, name: `Operations ${tag}`, hosts: [s.host], email: `${tag}@ops.test`, password: "pw-12345678" },
      ...{ payTo: anvilAddress(10), signingSecret: env().MARKET_UPSTREAM_SECRET },
    });
    s.sellerId = sellerId;
    ({ token: s.bearer, grantId: s.grantId } = await creditedBearer(sellerId, s.host));
    for (let url: string | null = "/openapi.json"; url;) {
      const doc = (await (await route(openapiRoute.GET, url)).json()) as Json;
      for (const ops of Object.values(doc.paths as Json)) for (const o of Object.values(ops as Json)) s.openapi.set(o.operationId, o);
      url = doc.info["x-next"] ? new URL(doc.info["x-next"]).pathname + new URL(doc.info["x-next"]).search : null;
    }
    s.manifest = (await (await route(manifestRoute.GET, "/manifest.json")).json()) as Json;
    s.llms = await (await route(llmsRoute.GET, "/llms.txt")).text();
    for (const t of await listMcpTools(s.host)) s.tools.set(t.name, t);
    // Examples that read the archive need a captured day: the test's own operations' feeds (no other file uses them).
    const own = archiveFeeds().filter((f) => testOperations.has(f.feed));
    await captureArchive({ feeds: own, now: () => new Date(`${ARCHIVE_DAY}T12:00:00Z`), providers: getMarketProviders() });
    s.feeds = own;
  }, 60_000);
  afterAll(() => {
    if (clientLimit === undefined) delete process.env.RATE_LIMIT_CLIENT_PER_MINUTE;
    else process.env.RATE_LIMIT_CLIENT_PER_MINUTE = clientLimit;
    resetEnvForTests();
  });

  const call = async (path: string, paid = false): Promise<Answer> => {
    const res = await callGateway(s.host, path, paid ? { headers: { authorization: `Bearer ${s.bearer}` } } : {});
    const text = await res.text();
    let body: Json | null = null;
    try {
      body = JSON.parse(text) as Json;
    } catch {
      /* asserted by the caller */
    }
    return { status: res.status, body };
  };
  const refused = (a: Answer) => a.status >= 400 && a.status < 500 && typeof a.body?.error === "string";

  describe.each(OPERATIONS.map((op) => [op.key, op] as const))("operation %s", (_key, op: DataOperation) => {
    const c = op.contract;
    const params = paramsOf(c);
    const example = () => op.example({ feeds: s.feeds });
    const coverage = () => op.coverage(getMarketProviders().kind, { feeds: archiveFeeds() });
    // A free operation is served without payment where a priced one answers 402 (the gateway's `free` path); a
    // live-only operation on offline providers refuses every valid call before any 402 (403 live_only).
    const free = op.meter.priceMicros === 0n;
    const liveOnlyOffline = !!op.liveOnly && getMarketProviders().kind === "embedded";
    const unpaidServed = (a: Answer) => (liveOnlyOffline ? a.status === 403 && a.body?.reason === "live_only" : free ? a.status === 200 : a.status === 402);

    it("its contract, OpenAPI, the MCP tool, the manifest and llms.txt agree, price and coverage included", () => {
      const o = s.openapi.get(op.key);
      expect(o, "in OpenAPI").toBeDefined();
      expect(o!.summary).toBe(c.summary);
      expect(o!.description).toBe(`${c.description} Coverage: ${coverage().summary}`);
      expect(o!["x-coverage"]).toEqual(coverage());
      expect(o!["x-service"]).toBe(op.service);
      expect(o!.parameters.map((p: Json) => [p.name, p.in, p.required])).toEqual(params.map((p) => [p.name, p.in, p.required]));
      const { $schema: _drop, ...response } = z.toJSONSchema(c.response, { io: "output", unrepresentable: "any", target: "draft-2020-12" }) as Json;
      expect(o!.responses["200"].content["application/json"].schema).toEqual(response);
      const price = { amountMicros: op.meter.priceMicros.toString(), meter: op.meter.key };
      // A free operation takes no payment: no price block and no 402 (MPP's discovery draft), as its tool has no price.
      if (free) expect([o!["x-payment-info"], o!.responses["402"]]).toEqual([undefined, undefined]);
      else expect(o!["x-payment-info"]).toMatchObject(price);
      // Discovery states the example for every archived feed (the battery's own calls use the feeds it captured).
      expect(o!["x-example"]).toEqual({
        request: exampleRequest(c, op.example({ feeds: archiveFeeds() })),
        ...(op.refusal ? { refusal: exampleRequest(c, op.refusal({ feeds: archiveFeeds() })) } : {}),
      });
      // The contract's envelope: every data answer says where it comes from and when.
      expect(Object.keys((c.response as z.ZodObject).shape)).toEqual(expect.arrayContaining(["source", "as_of"]));

      const tool = s.tools.get(op.key);
      expect(tool, "an MCP tool").toBeDefined();
      expect(Object.keys(tool!.inputSchema.properties)).toEqual(params.map((p) => p.name));
      expect(tool!.inputSchema.required ?? []).toEqual(params.filter((p) => p.required).map((p) => p.name));
      if (free) expect([tool!._meta, tool!.description.includes(" Free. ")]).toEqual([undefined, true]);
      else expect(tool!._meta["x-payment-info"]).toMatchObject(price);
      expect(tool!.description).toContain(`Coverage: ${coverage().summary}`);

      const service = (s.manifest.services as Json[]).find((x) => x.slug === op.service);
      expect(service?.operations.find((x: Json) => x.key === op.key)).toMatchObject({
        path: c.path,
        meter: op.meter.key,
        priceUsd: microsToUsd(op.meter.priceMicros),
      });
      expect((s.manifest.meters as Json[]).find((m) => m.key === op.meter.key)).toMatchObject({ title: op.meter.title, priceMicros: price.amountMicros });
      expect((s.manifest.plans as Json[]).find((p) => p.slug === "research-credits")!.meters).toContain(op.meter.key);
      if (free) {
        const line = s.llms.split("\n").find((l) => LLMS_FREE_OPERATION_LINE.exec(l)?.[2] === c.path);
        expect(LLMS_FREE_OPERATION_LINE.exec(line ?? "")?.slice(3, 5)).toEqual([op.meter.key, op.key]);
      } else {
        const line = s.llms.split("\n").find((l) => LLMS_OPERATION_LINE.exec(l)?.[2] === c.path);
        expect(LLMS_OPERATION_LINE.exec(line ?? "")?.slice(3, 5)).toEqual([microsToUsd(op.meter.priceMicros), op.meter.key]);
      }
    });

    it("the guide recommends it for its goal", async () => {
      const res = await route(guideRoute.GET, `/vendor/agent/guide?goal=${encodeURIComponent(op.goal)}`);
      const guide = (await res.json()) as Json;
      expect(guide.recommendations.map((r: Json) => r.operation)).toContain(op.key);
    });

    it("answers every value its contract refuses with 400 naming the parameter, before any payment", async () => {
      for (const p of params) {
        for (const v of outOfBounds(p)) {
          const a = await call(requestFor(c, example(), { [p.name]: v }));
          expect([a.status, a.body?.error, a.body?.parameter], `${p.name}=${JSON.stringify(v)}`).toEqual([400, "invalid_request", p.name]);
        }
        if (p.in === "query" && p.required) expect((await call(requestFor(c, example(), { [p.name]: undefined }))).body?.parameter).toBe(p.name);
      }
    });

    it("answers values on its bounds and seeded random values with 4xx, never 5xx, unpaid and paid", async () => {
      const seed = [...op.key].reduce((h, ch) => (h * 31 + ch.charCodeAt(0)) >>> 0, 7);
      const r = rng(seed);
      // Values on the bounds, in a seeded order: every one unpaid, a seeded sample of them paid.
      const bounds = params
        .flatMap((p) => onBounds(p).map((v) => [r.next(), requestFor(c, example(), { [p.name]: v })] as const))
        .sort((a, b) => a[0] - b[0])
        .map(([, path]) => path);
      for (const path of bounds) expect(unpaidServed(await call(path)), path).toBe(true);
      const accepted: string[] = [];
      for (let i = 0; i < FUZZ_ROUNDS && params.length; i++) {
        const p = r.pick(params);
        const path = requestFor(c, example(), { [p.name]: fuzzValue(r, p) });
        const a = await call(path);
        expect(unpaidServed(a) || refused(a), `seed ${seed} round ${i}: ${path} answered ${a.status}`).toBe(true);
        if (unpaidServed(a)) accepted.push(path);
      }
      // A parameter the contract does not name is ignored, as the contract's object schemas do.
      expect(unpaidServed(await call(requestFor(c, example(), { zz_unknown: "1" })))).toBe(true);
      const paid = [...bounds.slice(0, PAID_CALLS / 2), ...accepted.slice(0, PAID_CALLS / 2)];
      for (const path of paid) {
        const a = await call(path, true);
        expect(a.status < 500, `seed ${seed}: ${path} paid answered ${a.status} ${JSON.stringify(a.body)}`).toBe(true);
        if (a.status === 200) expect(c.response.safeParse(a.body).success, path).toBe(true);
      }
    });

    // Either the example's 200, or (a live-only operation offline) the refusal before any payment: one test, never skipped.
    if (liveOnlyOffline)
      it("offline, refuses its example before any payment: 403 live_only, no 402, no payment, the credit untouched", async () => {
        expect(coverage().summary.toLowerCase(), "the coverage says it is live-only").toContain("live-only");
        const path = requestFor(c, example());
        const unpaid = await call(path);
        expect([unpaid.status, unpaid.body?.error, unpaid.body?.reason, unpaid.body?.payment]).toEqual([403, "not_included", "live_only", undefined]);
        const before = await db.creditGrant.findUniqueOrThrow({ where: { id: s.grantId } });
        const paid = await call(path, true);
        expect([paid.status, paid.body?.error, paid.body?.reason]).toEqual([403, "not_included", "live_only"]);
        expect((await db.creditGrant.findUniqueOrThrow({ where: { id: s.grantId } })).remainingMicros).toBe(before.remainingMicros);
        expect(await db.payment.count({ where: { sellerId: s.sellerId, operationKey: op.key } })).toBe(0);
      });
    else
      it("answers its example with 200, a body its contract accepts and the common envelope", async () => {
        const ex = example();
        const a = await call(requestFor(c, ex), true);
        expect(a.status, JSON.stringify(a.body)).toBe(200);
        expect(c.response.safeParse(a.body).error).toBeUndefined();
        expect(a.body!.source).toBe(op.source);
        expect(a.body!.as_of === null || !Number.isNaN(Date.parse(a.body!.as_of)), `as_of ${a.body!.as_of}`).toBe(true);
        if (ex.path?.ticker) expect(a.body!.ticker).toBe(ex.path.ticker);
      });

    // Only an operation that declares a refused call has this test: unpaid it asks for payment (a priced operation cannot
    // know the answer before it is paid) or is refused (free); paid, it is refused and the plan credit is untouched.
    if (op.refusal)
      it("answers its refused call with 403 or 404 and charges nothing for it", async () => {
        const path = requestFor(c, op.refusal!({ feeds: s.feeds }));
        const unpaid = await call(path);
        if (free) expect([403, 404]).toContain(unpaid.status);
        else expect(unpaid.status, path).toBe(402);
        const before = await creditLeft(s.grantId);
        const paid = await call(path, true);
        expect([403, 404], `${path}: ${JSON.stringify(paid.body)}`).toContain(paid.status);
        expect(typeof paid.body?.error).toBe("string");
        expect(await creditLeft(s.grantId)).toBe(before);
      });

    // Only an operation that declares a feed has this test (none is reported skipped for the others).
    if (op.feed)
      it("its archive feed is captured, each entity's day read back as the operation's answer", async () => {
        const feed = archiveFeeds().find((f) => f.feed === op.key)!;
        // Captured under a name of this run's own: the built-in feeds' days belong to the upstream's tests.
        const name = `t${randomBytes(3).toString("hex")}_${op.key}`.slice(0, 64);
        const res = await captureArchive({
          feeds: [{ ...feed, feed: name }],
          now: () => new Date(`${ARCHIVE_DAY}T12:00:00Z`),
          providers: getMarketProviders(),
        });
        expect(res.type === "ran" && res.outcomes.map((o) => [o.entity, o.status])).toEqual(feed.entities.map((e) => [e, "captured"]));
        for (const entity of feed.entities) {
          const day = await findArchiveDay(name, entity, ARCHIVE_DAY);
          expect(c.response.safeParse(day?.payload).error, `${entity}`).toBeUndefined();
          expect(day!.summary).toEqual(feed.summarize(day!.payload));
        }
      });
  });
}

const creditLeft = async (grantId: string) => (await db.creditGrant.findUniqueOrThrow({ where: { id: grantId } })).remainingMicros;

/** An agent's bearer holding $100 of credit on the seller's research-credits plan (every data meter), and its grant. */
async function creditedBearer(sellerId: string, host: string): Promise<{ token: string; grantId: string }> {
  const agent = await registerAnonymous(routedStore(host));
  const plan = await db.plan.findFirstOrThrow({ where: { sellerId, slug: "research-credits" } });
  const amountMicros = 100_000_000n;
  const expiresAt = new Date(Date.now() + 86_400_000);
  // The grant's source: a purchase paid earlier (written directly; buying is not what is under test here).
  const source = await db.payment.create({
    data: {
      ...{ id: newId("pay"), sellerId, status: "consumed", rail: "x402", method: "POST", path: `/plans/${plan.id}/purchase`, query: "" },
      ...{ operationKey: "plan_purchase", amountMicros, credentialId: agent.credentialId, expiresAt },
    },
  });
  const grant = await db.creditGrant.create({
    data: {
      ...{ id: newId("grt"), sellerId, planId: plan.id, credentialId: agent.credentialId, sourcePaymentId: source.id },
      ...{ amountMicros, remainingMicros: amountMicros, expiresAt },
    },
  });
  return { token: agent.token, grantId: grant.id };
}

/** The MCP tool list, through the /mcp route handler in process. */
async function listMcpTools(host: string): Promise<Json[]> {
  const fetchRoute: typeof fetch = async (input, init) => {
    const req = new Request(input instanceof Request ? input : String(input), init);
    const headers = new Headers(req.headers);
    headers.set("host", host);
    const body = ["GET", "HEAD"].includes(req.method) ? undefined : await req.text();
    return (mcpRoute as unknown as Record<string, Handler>)[req.method]!(new Request(req.url, { method: req.method, headers, body }), {
      params: Promise.resolve({}),
    });
  };
  const client = new Client({ name: "operation-conformance", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`http://${host}/mcp`), { fetch: fetchRoute }));
  const { tools } = await client.listTools();
  await client.close();
  return tools as Json[];
}
