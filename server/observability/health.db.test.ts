// Liveness and readiness for a load balancer: /healthz checks nothing; /readyz answers 200 only with PostgreSQL reachable
// and migrated and the chain RPC answering as Base, 503 naming the failing check otherwise, and is cheap to poll (checks
// cached and shared by concurrent polls; the migration check made until it passes).
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import * as healthzRoute from "../../app/healthz/route";
import * as readyzRoute from "../../app/readyz/route";
import { withEnvForTests } from "../env";
import { resetHealthForTests } from "./health";

/** A JSON-RPC node that answers eth_chainId with `chainId` and counts what it is asked. */
let rpc: { url: string; calls: number; chainId: number; stop: () => Promise<void> };

beforeAll(async () => {
  const state = { calls: 0, chainId: 8453 };
  const server = http.createServer((req, res) => {
    state.calls++;
    req.resume();
    req.on("end", () =>
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ jsonrpc: "2.0", id: 1, result: `0x${state.chainId.toString(16)}` })),
    );
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  rpc = Object.assign(state, {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    stop: () => new Promise<void>((r) => server.close(() => r())),
  });
});

afterAll(() => rpc?.stop());
beforeEach(() => {
  resetHealthForTests();
  rpc.calls = 0;
  rpc.chainId = 8453;
});

const get = (mod: typeof readyzRoute) => mod.GET(new Request("http://localhost/readyz"), { params: Promise.resolve({}) });
const readyz = async () => {
  const res = await get(readyzRoute);
  return { status: res.status, body: await res.json(), cache: res.headers.get("cache-control") };
};

describe("health checks", () => {
  it("/healthz answers without looking at anything", async () => {
    await withEnvForTests({ RPC_URL: "http://127.0.0.1:9" }, async () => {
      const res = await get(healthzRoute);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ status: "ok" });
    });
  });

  it("/readyz is ready with PostgreSQL migrated and the chain answering as Base", async () => {
    await withEnvForTests({ RPC_URL: rpc.url }, async () => {
      const r = await readyz();
      expect(r).toMatchObject({ status: 200, cache: "no-store", body: { status: "ready" } });
      expect(r.body.checks).toMatchObject({ database: { ok: true }, migrations: { ok: true }, chain: { ok: true } });
    });
  });

  it("is not ready when the chain RPC is down or on another chain, naming the check", async () => {
    await withEnvForTests({ RPC_URL: "http://127.0.0.1:9" }, async () => {
      const r = await readyz();
      expect(r).toMatchObject({ status: 503, body: { status: "not_ready", checks: { database: { ok: true }, chain: { ok: false } } } });
    });
    resetHealthForTests();
    rpc.chainId = 84532;
    await withEnvForTests({ RPC_URL: rpc.url }, async () => {
      expect((await readyz()).body.checks.chain).toMatchObject({ ok: false, detail: "RPC is on chain 84532, not 8453" });
    });
  });

  it("is not ready while a migration this build ships is not applied", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "readyz-"));
    fs.mkdirSync(path.join(dir, "prisma", "migrations", "29991231000000_from_the_future"), { recursive: true });
    const cwd = process.cwd();
    process.chdir(dir);
    try {
      await withEnvForTests({ RPC_URL: rpc.url }, async () => {
        const r = await readyz();
        expect(r.status).toBe(503);
        expect(r.body.checks.migrations).toEqual({ ok: false, ms: expect.any(Number), detail: "not applied: 29991231000000_from_the_future" });
      });
    } finally {
      process.chdir(cwd);
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("is cheap to poll: fifty polls at once and again within a second ask the chain once", async () => {
    await withEnvForTests({ RPC_URL: rpc.url }, async () => {
      const all = await Promise.all(Array.from({ length: 50 }, readyz));
      expect(all.every((r) => r.status === 200)).toBe(true);
      for (let i = 0; i < 10; i++) expect((await readyz()).status).toBe(200);
      expect(rpc.calls).toBe(1);
    });
  });
});
