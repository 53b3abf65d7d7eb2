// The conformance battery every payment rail passes, as unkey runs one battery over every route: registered from a
// test file with the kits of the rails under test (server/payments/rails/conformance.db.test.ts runs it over every
// rail of the registry; server/testing/fixture-rail.db.test.ts over a rail registered by the test itself). A kit says
// only how its rail's clients pay; what is asserted is the same for every rail:
//  - reading a proof does no I/O, and empty headers are `absent`;
//  - malformed proofs (generated from a valid one) are a 4xx JSON error, never a 5xx, and buy at most one call;
//  - a valid proof is charged once under 20 concurrent copies, each copy served (the charge, or a replay of it) or told
//    to wait, and a retry of it afterwards is served again, never charged again (resumable delivery);
//  - an upstream failure releases the hold (or refunds a prepaid one) and leaves the payment terminal;
//  - a receipt only on a charge or a re-delivery of one;
//  - discovery offers the rail exactly at the prices it can take, and so does the 402;
//  - a rail whose kit says how its MCP clients pay is paid for an MCP tool call too (rail-conformance-mcp.ts).
import { createHash } from "node:crypto";
import http from "node:http";
import https from "node:https";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { resetEnvForTests } from "../env";
import * as openapiRoute from "../../app/openapi.json/route";
import { compactVerify, createLocalJWKSet } from "jose";
import { db } from "../db/client";
import { publicJwks } from "../identity/signing-keys";
import { discoveryOffers, railFor } from "../payments/rails";
import type { Rail } from "../payments/rails/rail";
import { describeMcpWay, type McpWay } from "./rail-conformance-mcp";
import { rng, type Rng } from "./random";
import { callGateway, startGatewayStack, stopGatewayStack, type FakeUpstream, type GatewaySeller, type TestChain } from "./gateway";

export type ConformanceStack = { chain: TestChain; upstream: FakeUpstream; seller: GatewaySeller };

/** One way of paying on a rail (the card rail has two: a hosted checkout, the MPP card method). */
export type ProofWay = {
  name: string;
  /** A priced call this way can pay (card: $0.50 and up). */
  path: string;
  /** The headers of a fresh valid proof for one call of `path`, made the way the rail's clients make it; `challenge` is a 402 of it. */
  pay(challenge: Response, stack: ConformanceStack): Promise<Record<string, string>>;
  /** Response headers (lower case) a charge on this way carries; none for rails without a protocol receipt. */
  receiptHeaders: string[];
};

export type RailKit = { rail: string; ways: ProofWay[]; mcp?: McpWay };

const TERMINAL_AFTER_FAILURE = ["released", "refunded"];
const SAMPLE_PRICES = [0n, 1n, 10_000n, 20_000n, 499_999n, 500_000n, 500_001n, 510_000n, 1_000_000n, 100_000_000n, 100_000_001n];

const WEIRD: unknown[] = [
  null,
  true,
  0,
  -1,
  1e308,
  "9".repeat(90),
  "",
  " ",
  "0x",
  "0x" + "f".repeat(64),
  [],
  {},
  { a: [null] },
  "eip155:1",
  "pay_0000000000000000",
];
const PRINTABLE = Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i)).join("");

function decodeJson(s: string): { json: Record<string, unknown>; encode: (v: unknown) => string } | null {
  for (const enc of ["base64url", "base64"] as const)
    try {
      const json = JSON.parse(Buffer.from(s, enc).toString("utf8"));
      if (json && typeof json === "object") return { json, encode: (v) => Buffer.from(JSON.stringify(v)).toString(enc) };
    } catch {
      /* not this encoding */
    }
  return null;
}

function leafPaths(v: unknown, prefix: string[] = []): string[][] {
  if (v === null || typeof v !== "object") return [prefix];
  const out: string[][] = prefix.length ? [prefix] : [];
  for (const [k, child] of Object.entries(v)) out.push(...leafPaths(child, [...prefix, k]));
  return out;
}

/** One malformed variant of a header value: cut, garbled, padded, or (for base64 JSON) a field set wrong. */
function mutate(r: Rng, value: string): string {
  const scheme = /^([A-Za-z]+ )(.*)$/.exec(value);
  const [prefix, rest] = scheme ? [scheme[1]!, scheme[2]!] : ["", value];
  switch (r.int(6)) {
    case 0:
      return prefix + rest.slice(0, r.int(rest.length));
    case 1:
      return prefix + Array.from({ length: 1 + r.int(200) }, () => r.pick([...PRINTABLE])).join("");
    case 2: {
      const i = r.int(Math.max(1, rest.length));
      return prefix + rest.slice(0, i) + r.pick([...PRINTABLE]) + rest.slice(i + 1);
    }
    case 3:
      return prefix + rest + "x".repeat(1 + r.int(20_000));
    case 4:
      return r.pick(["", " ", prefix.trim(), `${prefix}`, "null", "{}"]);
    default: {
      const decoded = decodeJson(rest);
      if (!decoded) return prefix + rest.split("").reverse().join("");
      const copy = structuredClone(decoded.json);
      const path = r.pick(leafPaths(copy));
      let o = copy as Record<string, unknown>;
      for (const k of path.slice(0, -1)) o = (o[k] ?? {}) as Record<string, unknown>;
      if (path.length) o[path[path.length - 1]!] = r.pick(WEIRD);
      return prefix + decoded.encode(copy);
    }
  }
}

/** Every I/O entry point a proof reader could reach, watched while it runs. */
function watchIo() {
  const spies = [
    vi.spyOn(pg.Pool.prototype, "query"),
    vi.spyOn(pg.Pool.prototype, "connect"),
    vi.spyOn(pg.Client.prototype, "query"),
    vi.spyOn(http, "request"),
    vi.spyOn(https, "request"),
    vi.spyOn(globalThis, "fetch"),
  ];
  return {
    calls: () => spies.reduce((n, s) => n + s.mock.calls.length, 0),
    restore: () => spies.forEach((s) => s.mockRestore()),
  };
}

/**
 * Wait until nothing in this process does I/O for `quietMs` (or give up after about three seconds): what paying started
 * in the background (the client's chain reads, a capture flush of an earlier call) is not the reader's to count.
 */
async function ioQuiet(quietMs = 300): Promise<void> {
  for (let i = 0; i < 10; i++) {
    const io = watchIo();
    await new Promise((r) => setTimeout(r, quietMs));
    const calls = io.calls();
    io.restore();
    if (calls === 0) return;
  }
}

async function answer(res: Response) {
  const text = await res.text();
  let body: Record<string, unknown> | null = null;
  try {
    body = JSON.parse(text);
  } catch {
    /* checked by the caller */
  }
  const headers: Record<string, string> = {};
  res.headers.forEach((v, k) => (headers[k] = v));
  return { status: res.status, body, text, headers, type: res.headers.get("content-type") ?? "" };
}

/** `svc-receipt` verifies with the storefront's published keys, names the payment, and hashes the body received. */
async function expectSignedReceipt(a: Awaited<ReturnType<typeof answer>>, paymentId: string): Promise<void> {
  const jws = a.headers["svc-receipt"];
  expect(jws, "svc-receipt").toBeTruthy();
  const { payload } = await compactVerify(jws!, createLocalJWKSet(await publicJwks()));
  const claims = JSON.parse(new TextDecoder().decode(payload));
  // Issue 33 changed this rule (it was `replay: isReplay(a)`, a receipt of its own per re-delivery): a replay is the kept
  // answer with the charge's own receipt, which says no replay and hashes the very bytes replayed.
  expect(claims).toMatchObject({ payment_id: paymentId, upstream_status: a.status, replay: false });
  expect(claims.body_sha256).toBe(createHash("sha256").update(Buffer.from(a.text, "utf8")).digest("base64url"));
}

/** A 200 that re-delivers a payment charged before (resumable delivery), not a charge. */
const isReplay = (a: Awaited<ReturnType<typeof answer>>) => /(^|; )replay=true(;|$)/.test(a.headers["svc-billing"] ?? "");
const isJsonError = (a: Awaited<ReturnType<typeof answer>>) => a.status >= 400 && a.status < 500 && typeof a.body?.error === "string" && /json/.test(a.type);

/** Verified rows of this seller: none may be left once the answers are in (captured off-path rows settle shortly). */
async function heldRows(sellerId: string): Promise<number> {
  for (let i = 0; ; i++) {
    const n = await db.payment.count({ where: { sellerId, status: "verified" } });
    if (n === 0 || i >= 30) return n;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The battery for these rails' kits, over one gateway stack (a chain, a fake upstream, a seller). */
export function describeRailConformance(kits: RailKit[]): void {
  const stack = {} as ConformanceStack;
  // The battery is one client sending thousands of malformed proofs a minute: the per-client budget (issue 22; tested
  // in server/gateway/gateway.db.test.ts) would answer most of them, and the registrations and 402s the kits need, 429.
  const clientLimit = process.env.RATE_LIMIT_CLIENT_PER_MINUTE;
  beforeAll(async () => {
    process.env.RATE_LIMIT_CLIENT_PER_MINUTE = "1000000";
    resetEnvForTests();
    Object.assign(stack, await startGatewayStack("conformance-upstream-secret-0123"));
  }, 60_000);
  afterAll(async () => {
    await stopGatewayStack(stack);
    if (clientLimit === undefined) delete process.env.RATE_LIMIT_CLIENT_PER_MINUTE;
    else process.env.RATE_LIMIT_CLIENT_PER_MINUTE = clientLimit;
    resetEnvForTests();
  });

  for (const kit of kits)
    describe(`rail ${kit.rail}`, () => {
      const rail = (): Rail => railFor(kit.rail);
      const challenge = (path: string) => callGateway(stack.seller.host, path);

      it("reads empty headers as absent", () => {
        expect(rail().readProof(new Headers())).toEqual({ type: "absent" });
      });

      it("lists itself in discovery exactly at the prices it can take, and in the 402 exactly when it can pay there", async () => {
        for (const amount of SAMPLE_PRICES) expect(discoveryOffers(rail(), amount).length > 0, `at ${amount} micros`).toBe(rail().price(amount) !== null);
        for (const way of kit.ways) {
          const res = await challenge(way.path);
          expect(res.status).toBe(402);
          const body = (await res.json()) as { payment: { amount_micros: string; rails: string[] } };
          const price = BigInt(body.payment.amount_micros);
          // An offer of its own, or (an implicit rail: plan credit) the proof a data call's request carries anyway.
          expect(body.payment.rails.includes(kit.rail)).toBe((!!rail().challenge || !!rail().implicit) && rail().price(price) !== null);
          const doc = await openapiRoute.GET(
            new Request(`http://${stack.seller.host}/openapi.json?path=${encodeURIComponent(way.path.split("?")[0]!)}`, {
              headers: { host: stack.seller.host },
            }),
            { params: Promise.resolve({}) },
          );
          const ops = Object.values((await doc.json()).paths as Record<string, Record<string, { "x-payment-info"?: { protocols: string[] } }>>).flatMap((p) =>
            Object.values(p),
          );
          const info = ops.find((o) => o["x-payment-info"])?.["x-payment-info"];
          expect(info, `x-payment-info of ${way.path}`).toBeDefined();
          expect(info!.protocols.includes(kit.rail)).toBe(rail().price(price) !== null);
        }
      });

      for (const way of kit.ways)
        describe(way.name, () => {
          const call = (headers: Record<string, string>) => callGateway(stack.seller.host, way.path, { headers }).then(answer);

          it("reads a valid proof with no I/O", async () => {
            const headers = await way.pay(await challenge(way.path), stack);
            await ioQuiet();
            const io = watchIo();
            let read: ReturnType<Rail["readProof"]>;
            let calls: number;
            try {
              read = rail().readProof(new Headers(headers));
              // I/O a reader merely starts (an async step it does not await) reaches its first query within the
              // microtasks that follow: they are run, and no timer, so this process's background loops (flushes,
              // listeners, which a loaded run delays into any window of real time) are not counted as the reader's.
              for (let i = 0; i < 50; i++) await Promise.resolve();
            } finally {
              calls = io.calls();
              io.restore();
            }
            expect(calls).toBe(0);
            expect(typeof (read as { then?: unknown }).then).toBe("undefined");
            expect(read.type).toBe("present");
          });

          it("answers malformed proofs with a 4xx JSON error, never a 5xx; they buy at most one call, charged once", async () => {
            const valid = await way.pay(await challenge(way.path), stack);
            const r = rng([...`${kit.rail}/${way.name}`].reduce((h, c) => (h * 31 + c.charCodeAt(0)) >>> 0, 7));
            const values: Record<string, string>[] = [];
            for (let i = 0; i < 120; i++) {
              const name = r.pick(Object.keys(valid));
              values.push({ ...valid, [name]: mutate(r, valid[name]!) });
            }
            const callsBefore = stack.upstream.state.calls;
            const bad: string[] = [];
            let charged = 0;
            for (let i = 0; i < values.length; i += 20) {
              const answers = await Promise.all(
                values.slice(i, i + 20).map(async (h) => {
                  try {
                    return { h, a: await call(h) };
                  } catch {
                    return null; // a value Headers refuses to carry never reaches the storefront
                  }
                }),
              );
              for (const x of answers) {
                if (!x) continue;
                if (x.a.status === 200) {
                  if (!isReplay(x.a)) charged++;
                } else if (!isJsonError(x.a)) bad.push(`${x.a.status} ${JSON.stringify(x.a.body)?.slice(0, 160)} for ${JSON.stringify(x.h).slice(0, 200)}`);
              }
            }
            expect(bad).toEqual([]);
            // A value still carrying the proof that paid (a field it does not depend on changed) is served again, free.
            expect(charged).toBeLessThanOrEqual(1);
            // Issue 33: the upstream runs once per charge (a replay is served the kept answer); it was once per answer served.
            expect(stack.upstream.state.calls - callsBefore).toBe(charged);
            expect(await heldRows(stack.seller.sellerId)).toBe(0);
          }, 120_000);

          // Issue 23 changed this rule (resumable delivery): it was "holds a valid proof once under 20 concurrent copies,
          // with a receipt only on the charge; a replay is refused".
          it("charges a valid proof once under 20 concurrent copies, each served or told to wait; a retry is served again, never charged again", async () => {
            const proof = await way.pay(await challenge(way.path), stack);
            const callsBefore = stack.upstream.state.calls;
            const answers = await Promise.all(Array.from({ length: 20 }, () => call(proof)));
            const served = answers.filter((a) => a.status === 200);
            const charges = served.filter((a) => !isReplay(a));
            expect(charges, JSON.stringify(answers.map((a) => [a.status, a.body?.error]))).toHaveLength(1);
            for (const a of answers.filter((x) => x.status !== 200)) expect(isJsonError(a), JSON.stringify(a.body)).toBe(true);
            // Issue 33: the upstream runs once per charge (a replay is served the kept answer); it was once per answer served.
            expect(stack.upstream.state.calls - callsBefore).toBe(1);
            // A receipt on the charge and on each re-delivery of it, never on a refusal; ours is signed over the bytes received.
            for (const a of served) for (const h of way.receiptHeaders) expect(a.headers[h], h).toBeTruthy();
            for (const a of served) await expectSignedReceipt(a, charges[0]!.headers["svc-payment-id"]!);
            for (const a of answers.filter((x) => x.status !== 200)) expect(a.headers["svc-receipt"]).toBeUndefined();
            for (const a of answers.filter((x) => x.status !== 200)) for (const h of way.receiptHeaders) expect(a.headers[h], h).toBeUndefined();
            const paymentId = charges[0]!.headers["svc-payment-id"];
            // A charge captured off the response path may land a moment after its answer: counted once it has.
            await heldRows(stack.seller.sellerId);
            const ledgerRows = await db.ledgerEntry.count({ where: { paymentId } });
            expect(ledgerRows).toBeLessThanOrEqual(1);

            const replay = await call(proof);
            expect(replay.status, JSON.stringify(replay.body)).toBe(200);
            expect(isReplay(replay)).toBe(true);
            expect(replay.headers["svc-payment-id"]).toBe(paymentId);
            for (const h of way.receiptHeaders) expect(replay.headers[h], h).toBeTruthy();
            expect(stack.upstream.state.calls - callsBefore).toBe(1);
            expect(await db.ledgerEntry.count({ where: { paymentId } })).toBe(ledgerRows);
            expect(await heldRows(stack.seller.sellerId)).toBe(0);
          });

          it("releases the hold (or refunds a prepaid one) when the upstream fails, leaving the payment terminal and no receipt", async () => {
            const proof = await way.pay(await challenge(way.path), stack);
            stack.upstream.state.mode = { status: 500 };
            try {
              const callsBefore = stack.upstream.state.calls;
              const failed = await call(proof);
              expect(failed.status).toBe(500);
              expect(stack.upstream.state.calls - callsBefore).toBe(1);
              for (const h of way.receiptHeaders) expect(failed.headers[h], h).toBeUndefined();
              const id = failed.headers["svc-payment-id"];
              expect(id).toBeTruthy();
              const row = await db.payment.findUniqueOrThrow({ where: { id } });
              expect(TERMINAL_AFTER_FAILURE).toContain(row.status);
              expect(row.rail).toBe(kit.rail);
              // Nothing kept: no charge, or a charge and its refund in full (a prepaid hold).
              const ledger = await db.ledgerEntry.findMany({ where: { paymentId: id } });
              const net = ledger.reduce((n, l) => n + (l.kind === "refund" ? -l.amountMicros : l.amountMicros), 0n);
              expect(net).toBe(0n);
            } finally {
              stack.upstream.state.mode = { status: 200 };
            }
          });
        });

      if (kit.mcp) describeMcpWay(kit.rail, kit.mcp, stack);
    });
}
