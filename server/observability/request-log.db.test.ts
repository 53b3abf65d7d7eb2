// The logs an operator reads: one JSON access line per request through the route wrapper (request id, seller, route,
// status, duration, and for a paid call its rail, payment id and operation), and for an unexpected failure an error
// line carrying the request id the client was given. Credentials, payment proofs, cookies and card data never appear.
import { Writable } from "node:stream";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { seedMarketSeller } from "../../prisma/seed";
import { db } from "../db/client";
import { methods, observed } from "../http/route";
import { newId } from "../lib/ids";
import { captureConsole } from "./capture-console";
import { createLogger, setLoggerForTests } from "./logger";

const JWT = "eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJhZ3RfMTIzIn0.c2lnbmF0dXJlLXNpZ25hdHVyZQ";
const SECRETS = {
  authorization: `Bearer ${JWT}`,
  "svc-agent-authorization": "Bearer spt_live_abcdefghijklmnop",
  "payment-signature": "eyJ4NDAyVmVyc2lvbiI6Miwic2lnbmF0dXJlIjoiMHhhYmMifQ==",
  "x-payment": "eyJ4NDAyVmVyc2lvbiI6MSwicGF5bG9hZCI6e319",
  cookie: "next-auth.session-token=supersecretsessionvalue",
};
const MPP = "Payment eyJjaGFsbGVuZ2UiOnsiaWQiOiJzZWNyZXQtY2hhbGxlbmdlIn19";
const CARD = "4242 4242 4242 4242";

let lines: Record<string, unknown>[] = [];
let raw = "";
let host: string;
let sellerId: string;
let restoreConsole: () => void;

beforeAll(async () => {
  const tag = newId("tst").slice(4, 12);
  host = `log-${tag}.test`;
  ({ sellerId } = await seedMarketSeller(db, {
    slug: `log-${tag}`,
    name: "Log test",
    hosts: [host],
    email: `log-${tag}@log.test`,
    password: "pw-12345678",
    payTo: null,
    signingSecret: null,
  }));
  const sink = new Writable({
    write(chunk, _enc, done) {
      raw += chunk.toString();
      for (const l of chunk.toString().split("\n").filter(Boolean)) lines.push(JSON.parse(l));
      done();
    },
  });
  setLoggerForTests(createLogger(sink, "info"));
  restoreConsole = captureConsole();
});

afterEach(() => {
  lines = [];
  raw = "";
});

afterAll(() => {
  restoreConsole();
  setLoggerForTests(undefined);
});

// A paid answer as the gateway renders it, and a handler that fails with secrets in its error.
const routes = methods({
  GET: async (ctx) => {
    await ctx.seller();
    return new Response("{}", {
      headers: {
        "svc-billing": "payment=pay_0123456789abcdef; rail=x402; operation=aggregates; meter=aggregates; units=1; amount_usd=0.020000; status=charged",
        "svc-payment-id": "pay_0123456789abcdef",
        "server-timing": "accept;dur=2.0, upstream;dur=3.5, schedule;dur=0.4, settle;dur=4.2, chain;dur=5.0, total;dur=12.0",
      },
    });
  },
  POST: async () => {
    throw new Error(`declined card ${CARD} for ${SECRETS.authorization}`);
  },
});

const call = (method: "GET" | "POST", headers: Record<string, string>) =>
  routes[method](new Request(`http://${host}/api/v1/aggregates/AAPL?from=2024-01-01`, { method, headers: { host, ...headers } }), {
    params: Promise.resolve({ path: ["aggregates", "AAPL"] }),
  });

describe("request logs", () => {
  it("one access line per request: request id, seller, route, status, duration, rail, payment id, operation", async () => {
    const res = await call("GET", { "user-agent": "test-agent/1.0", "x-request-id": "req-abc-123" });
    expect(res.status).toBe(200);
    expect(res.headers.get("x-request-id")).toBe("req-abc-123");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      level: "info",
      msg: "request",
      req_id: "req-abc-123",
      method: "GET",
      route: "/api/v1/[...path]",
      path: "/api/v1/aggregates/AAPL",
      status: 200,
      seller: sellerId,
      rail: "x402",
      payment_id: "pay_0123456789abcdef",
      operation: "aggregates",
      billing: "charged",
      upstream_ms: 3.5,
      user_agent: "test-agent/1.0",
      service: "storefront",
    });
    expect(typeof lines[0]!.duration_ms).toBe("number");
    expect(typeof lines[0]!.time).toBe("string");
  });

  it("an unexpected error: a 500 naming the request id, an error line with the same id, nothing secret anywhere", async () => {
    const res = await call("POST", { ...SECRETS, "svc-payment-id": "pay_fedcba9876543210" });
    expect(res.status).toBe(500);
    const body = await res.json();
    expect(body).toMatchObject({ error: "internal_error" });
    const requestId = res.headers.get("x-request-id");
    expect(body.request_id).toBe(requestId);
    const error = lines.find((l) => l.msg === "request failed")!;
    expect(error).toMatchObject({ level: "error", req_id: requestId, req: { method: "POST", path: "/api/v1/aggregates/AAPL" } });
    expect((error.err as { message: string }).message).toContain("[card redacted]");
    expect((error.req as { headers: Record<string, string> }).headers).toMatchObject({
      authorization: "Bearer [redacted]",
      "payment-signature": "[redacted]",
      "x-payment": "[redacted]",
      cookie: "[redacted]",
      // A payment's id is not a proof: kept, so the line can be found by it.
      "svc-payment-id": "pay_fedcba9876543210",
    });
    expect(lines.find((l) => l.msg === "request")).toMatchObject({ req_id: requestId, status: 500, level: "error" });
    for (const secret of [
      JWT,
      "spt_live_abcdefghijklmnop",
      SECRETS["payment-signature"],
      SECRETS["x-payment"],
      "supersecretsessionvalue",
      CARD,
      "4242424242424242",
    ])
      expect(raw).not.toContain(secret);
  });

  it("an MPP credential in Authorization and card data logged by name are redacted too", async () => {
    const res = await call("POST", { authorization: MPP });
    expect(res.status).toBe(500);
    console.error({ card: { number: "4242424242424242", cvc: "123" }, cardNumber: "4000000000000002" }, "form posted");
    expect(raw).toContain("Payment [redacted]");
    for (const secret of ["secret-challenge", "eyJjaGFsbGVuZ2UiOnsiaWQiOiJzZWNyZXQtY2hhbGxlbmdlIn19", "4242424242424242", "4000000000000002"])
      expect(raw).not.toContain(secret);
  });

  it("an adapter's handler (the console's tRPC endpoint) gets its access line and request id, and no CORS headers", async () => {
    const handler = observed("/api/trpc/[trpc]", async () => new Response("{}", { status: 200 }));
    const res = await handler(new Request("http://localhost/api/trpc/webhooks.endpoints?batch=1"));
    expect(res.headers.get("x-request-id")).toBeTruthy();
    expect(res.headers.get("access-control-allow-origin")).toBeNull();
    expect(lines).toEqual([expect.objectContaining({ msg: "request", route: "/api/trpc/[trpc]", path: "/api/trpc/webhooks.endpoints", status: 200 })]);
  });

  it("console output (the reconciler's lines, libraries) becomes JSON lines with a component", () => {
    console.info("[reconciler] settled=1 failed=0 released=0 pending=0");
    expect(lines).toEqual([expect.objectContaining({ level: "info", component: "reconciler", msg: "settled=1 failed=0 released=0 pending=0" })]);
  });
});
