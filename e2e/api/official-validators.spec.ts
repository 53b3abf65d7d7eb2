// The payment protocols' own validators, unmodified, against the built app. MPP: `mppx discover validate` on every page
// of /openapi.json (the `x-payment-info` blocks), and `mppx validate` end to end as an MPP crawler runs it (discovery,
// each priced operation's 402 challenge, its answer to a garbage credential). x402: @x402/core's schemas and its HTTP
// client over the 402 of every operation that takes payment. Zero errors from each.
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { expect, test, type APIRequestContext } from "@playwright/test";
import { x402Client, x402HTTPClient } from "@x402/core/client";
import { decodePaymentRequiredHeader } from "@x402/core/http";
import { parsePaymentRequired } from "@x402/core/schemas";

const run = promisify(execFile);
const MPPX = path.resolve("node_modules/.bin/mppx");

type Json = Record<string, unknown>;
type OpenApiOperation = {
  operationId: string;
  "x-payment-info"?: { amountMicros: string; offers: Json[] };
  "x-example"?: { request: string };
  "x-coverage"?: { summary?: string };
  requestBody?: { content: Record<string, { schema: { required?: string[]; properties: Record<string, { example?: unknown }> } }> };
};
type Paid = { key: string; method: string; template: string; url: string; body?: string; amountMicros: string; liveOnly: boolean };

/** Every page of /openapi.json, following `info.x-next` as a client is told to. */
async function openApiPages(request: APIRequestContext): Promise<{ url: string; doc: { paths: Record<string, Record<string, OpenApiOperation>> } }[]> {
  const pages = [];
  for (let url: string | undefined = "/openapi.json"; url;) {
    const doc = await (await request.get(url)).json();
    pages.push({ url, doc });
    url = doc.info["x-next"];
  }
  return pages;
}

/** Each operation that takes payment (it carries `x-payment-info`), as a call that answers 402: its example, or its body's example. */
function paidCalls(pages: Awaited<ReturnType<typeof openApiPages>>): Paid[] {
  return pages.flatMap(({ doc }) =>
    Object.entries(doc.paths).flatMap(([template, methods]) =>
      Object.entries(methods).flatMap(([method, o]) => {
        const info = o["x-payment-info"];
        if (!info) return [];
        const schema = o.requestBody?.content["application/json"]?.schema;
        const body = schema && JSON.stringify(Object.fromEntries((schema.required ?? []).map((n) => [n, schema.properties[n]?.example])));
        const url = o["x-example"]?.request ?? template;
        expect(url, `${o.operationId}: a callable example`).not.toContain("{");
        // A live-only operation on this offline stack refuses its calls before any payment (no 402 to check).
        const liveOnly = /live-only/i.test(o["x-coverage"]?.summary ?? "");
        return [{ key: o.operationId, method: method.toUpperCase(), template, url, ...(body ? { body } : {}), amountMicros: info.amountMicros, liveOnly }];
      }),
    ),
  );
}

/**
 * The mppx CLI as an MPP developer runs it, with a home of its own: no wallet, no config, no Stripe key, so the
 * validator checks everything up to paying and skips the payment itself (it would spend real money on Base).
 */
async function mppx(home: string, args: string[]): Promise<Json> {
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: home, MPPX_STRIPE_SECRET_KEY: "", NO_COLOR: "1" };
  for (const k of Object.keys(env)) if (k.startsWith("MPPX_") && k !== "MPPX_STRIPE_SECRET_KEY") delete env[k];
  const out = await run(MPPX, args, { env, maxBuffer: 64 << 20, timeout: 120_000 }).catch((e: { stdout?: string; stderr?: string }) => ({
    stdout: e.stdout ?? "",
    stderr: e.stderr ?? "",
  }));
  const start = out.stdout.indexOf("{");
  expect(start, `mppx ${args.join(" ")} printed no JSON: ${out.stdout} ${out.stderr}`).toBeGreaterThanOrEqual(0);
  return JSON.parse(out.stdout.slice(start));
}

type Check = { label: string; severity: string; detail?: string };
const notPassed = (checks: Check[]) => checks.filter((c) => c.severity === "fail" || c.severity === "warn").map((c) => `${c.label}: ${c.detail ?? ""}`);

test.describe("official validators", () => {
  let home: string;
  test.beforeAll(() => {
    home = fs.mkdtempSync(path.join(os.tmpdir(), "mppx-home-"));
  });
  test.afterAll(() => fs.rmSync(home, { recursive: true, force: true }));

  test("mppx discover validate: every page of /openapi.json, every priced and free operation, 0 errors and 0 warnings", async ({ request, baseURL }) => {
    test.setTimeout(180_000);
    const pages = await openApiPages(request);
    expect(pages.length).toBeGreaterThan(1);
    for (const { url } of pages) {
      const result = await mppx(home, ["discover", "validate", new URL(url, baseURL).href, "--format", "json"]);
      expect(result, url).toEqual({ errorCount: 0, issues: [], valid: true, warningCount: 0 });
    }
  });

  test("mppx validate: discovery, each priced operation's challenge and its answer to a garbage credential, 0 failed", async ({ request, baseURL }) => {
    test.setTimeout(300_000);
    const paid = paidCalls(await openApiPages(request));
    expect(paid.length).toBeGreaterThan(10);
    // As a crawler: the storefront's origin, the operations it finds on /openapi.json (its first page).
    const crawl = (await mppx(home, ["validate", baseURL!, "-j"])) as {
      summary: { failed: number; warnings: number };
      discovery: { valid: boolean; checks: Check[] };
      endpoints: { method: string; path: string; challenge: Check[]; errorHandling: Check[] }[];
    };
    expect(notPassed(crawl.discovery.checks)).toEqual([]);
    expect(crawl.discovery.valid).toBe(true);
    for (const e of crawl.endpoints) expect(notPassed([...e.challenge, ...e.errorHandling]), `${e.method} ${e.path}`).toEqual([]);
    expect(crawl.summary).toMatchObject({ failed: 0, warnings: 0 });
    const crawled = new Set(crawl.endpoints.map((e) => `${e.method} ${e.path}`));
    expect(crawled.size).toBeGreaterThan(0);
    // The operations on later pages, one by one (`--endpoint`), at their example calls.
    for (const p of paid.filter((x) => !crawled.has(`${x.method} ${x.template}`))) {
      const args = ["validate", baseURL!, "-j", "--endpoint", `${p.method}:${p.url}`, ...(p.body ? ["--body", p.body] : [])];
      const one = (await mppx(home, args)) as typeof crawl;
      const e = one.endpoints[0]!;
      expect(notPassed([...e.challenge, ...e.errorHandling]), p.key).toEqual([]);
      expect(e.challenge.find((c) => c.label === "Challenge parseable")?.severity, p.key).toBe("pass");
      expect(one.summary.failed, p.key).toBe(0);
    }
  });

  test("x402's own types accept every operation's unpaid 402: the body (v1), PAYMENT-REQUIRED (v2) and the official HTTP client's reading", async ({
    request,
  }) => {
    const paid = paidCalls(await openApiPages(request));
    const client = new x402HTTPClient(new x402Client());
    for (const p of paid) {
      const res = await request.fetch(p.url, { method: p.method, ...(p.body ? { data: p.body, headers: { "content-type": "application/json" } } : {}) });
      if (p.liveOnly) {
        expect([res.status(), (await res.json()).reason], p.key).toEqual([403, "live_only"]);
        continue;
      }
      expect(res.status(), p.key).toBe(402);
      const body = await res.json();
      const fromBody = parsePaymentRequired(body);
      expect(fromBody.error?.issues ?? [], `${p.key}: body`).toEqual([]);
      const header = res.headers()["payment-required"]!;
      const fromHeader = parsePaymentRequired(decodePaymentRequiredHeader(header));
      expect(fromHeader.error?.issues ?? [], `${p.key}: PAYMENT-REQUIRED`).toEqual([]);
      expect(fromHeader.data).toMatchObject({ x402Version: 2 });
      // The official client reads the header (v2), and the body alone (v1) where a proxy dropped the header.
      const read = client.getPaymentRequiredResponse((name) => res.headers()[name.toLowerCase()], body);
      expect(
        read.accepts.map((a) => a.amount),
        p.key,
      ).toContain(p.amountMicros);
      const v1 = client.getPaymentRequiredResponse(() => null, body);
      expect(v1.x402Version, p.key).toBe(1);
      expect(v1.accepts.length, p.key).toBeGreaterThan(0);
    }
  });
});
