// Path variants cannot reach the upstream unpaid. Every priced route of the catalog (read from the storefront's own
// manifest and OpenAPI document, not listed here), sent over a raw socket so nothing normalises the path on the way
// (fetch and node:http clients would), in its encoded, doubled, dotted, malformed, re-cased, parametered and lengthened
// forms. Each must answer 402 (a form that normalises to a priced route is priced as that route), 400 or 404 (Next.js
// itself answers `//`, `\` and trailing `/`, `/.`, `/..` with a 308 to the cleaned path, before any route code runs;
// the target of that redirect is checked the same way), never a 2xx, and the seller's upstream,
// a local server that counts what reaches it, must see nothing. A positive control (one paid call) proves the counter
// does see what does reach it.
import http from "node:http";
import net from "node:net";
import type { AddressInfo } from "node:net";
import { expect, test } from "@playwright/test";
import { x402Client } from "@x402/core/client";
import { registerExactEvmScheme } from "@x402/evm/exact/client";
import { wrapFetchWithPayment } from "@x402/fetch";
import { mnemonicToAccount } from "viem/accounts";
import { query } from "../stack";

const HOST = "counted.localhost";
const port = Number(process.env.E2E_PORT ?? 3100);

type Raw = { status: number; headers: Record<string, string>; body: string };

/** One request, written byte for byte on a socket: the path arrives exactly as given. */
function rawGet(path: string, host = HOST): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1");
    const chunks: Buffer[] = [];
    socket.setTimeout(30_000, () => socket.destroy(new Error(`timeout for ${path}`)));
    socket.on("connect", () => socket.write(`GET ${path} HTTP/1.1\r\nHost: ${host}\r\nAccept: application/json\r\nConnection: close\r\n\r\n`, "latin1"));
    socket.on("data", (c: Buffer) => chunks.push(c));
    socket.on("error", reject);
    socket.on("close", () => {
      const all = Buffer.concat(chunks);
      const split = all.indexOf("\r\n\r\n");
      const [statusLine = "", ...lines] = all.subarray(0, split).toString("latin1").split("\r\n");
      const status = Number(statusLine.split(" ")[1]);
      const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(":")).toLowerCase(), l.slice(l.indexOf(":") + 1).trim()]));
      let body: Buffer = all.subarray(split + 4);
      if (/chunked/i.test(headers["transfer-encoding"] ?? "")) body = dechunk(body);
      resolve({ status, headers, body: body.toString("utf8") });
    });
  });
}

/** An HTTP/1.1 chunked body, joined. */
function dechunk(buf: Buffer): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const eol = buf.indexOf("\r\n", at);
    if (eol < 0) break;
    const size = parseInt(buf.subarray(at, eol).toString("latin1"), 16);
    if (!size) break;
    parts.push(buf.subarray(eol + 2, eol + 2 + size));
    at = eol + 2 + size + 2;
  }
  return Buffer.concat(parts);
}

/** What the storefront sells: every operation with a price above zero, and a valid value for each path parameter. */
async function pricedRoutes(): Promise<{ key: string; path: string }[]> {
  const manifest = JSON.parse((await rawGet("/manifest.json")).body) as {
    services: { operations: { key: string; method: string; path: string; priceUsd: string | null }[] }[];
  };
  const priced = manifest.services.flatMap((s) => s.operations).filter((o) => o.method === "GET" && o.priceUsd !== null && Number(o.priceUsd) > 0);
  const routes: { key: string; path: string }[] = [];
  for (const op of priced) {
    const doc = JSON.parse((await rawGet(`/openapi.json?path=${encodeURIComponent(op.path)}`)).body) as {
      paths: Record<string, Record<string, { parameters?: { name: string; in: string; schema?: { example?: string; pattern?: string; enum?: string[] } }[] }>>;
    };
    const params = doc.paths[op.path]?.get?.parameters ?? [];
    const path = op.path.replace(/\{([^}]+)\}/g, (_m, name: string) => {
      const schema = params.find((p) => p.in === "path" && p.name === name)?.schema ?? {};
      const candidates = [schema.example, ...(schema.enum ?? []), "AAPL", "fx", "a1"].filter((c): c is string => typeof c === "string");
      const ok = candidates.find((c) => !schema.pattern || new RegExp(schema.pattern).test(c));
      if (!ok) throw new Error(`no value for {${name}} of ${op.path}`);
      return ok;
    });
    routes.push({ key: op.key, path });
  }
  return routes;
}

/** The paths of the data operations sold at $0 (served without payment), from the manifest. */
async function freeRoutes(): Promise<string[]> {
  const manifest = JSON.parse((await rawGet("/manifest.json")).body) as { services: { operations: { path: string; priceUsd: string | null }[] }[] };
  return manifest.services
    .flatMap((s) => s.operations)
    .filter((o) => o.priceUsd !== null && Number(o.priceUsd) === 0 && !o.path.includes("{"))
    .map((o) => o.path);
}

/** The variants of one route's path: name and raw request target. */
function variants(path: string): [string, string][] {
  const segs = path.split("/").slice(1); // ["api", "v1", ...]
  const joinAt = (i: number, sep: string) => "/" + segs.slice(0, i).join("/") + sep + segs.slice(i).join("/");
  const out: [string, string][] = [];
  for (let i = 1; i < segs.length; i++) {
    for (const sep of ["%2F", "%2f", "%252F", "%5C", "%5c", "//", "/./", "/%2e/", "/x/../", "/%2e%2e/", "/x/%2e%2e/", "\\"])
      out.push([`${sep} at ${i}`, joinAt(i, sep)]);
  }
  out.push(["leading //", `/${path}`]);
  out.push(["trailing /", `${path}/`]);
  out.push(["trailing /.", `${path}/.`]);
  out.push(["trailing /..", `${path}/..`]);
  out.push(["trailing %2F", `${path}%2F`]);
  out.push(["all / as %2F", "/" + segs.join("%2F")]);
  for (let i = 0; i < segs.length; i++) {
    const with_ = (seg: string) => "/" + segs.map((s, j) => (j === i ? seg : s)).join("/");
    for (const bad of ["%", "%zz", "%E0%A4%A", "%C0%AF", "%00", "%FF", "%%2F"]) out.push([`malformed ${bad} in segment ${i}`, with_(segs[i] + bad)]);
    out.push([`upper case segment ${i}`, with_(segs[i]!.toUpperCase())]);
    out.push([`mixed case segment ${i}`, with_([...segs[i]!].map((c, k) => (k % 2 ? c.toUpperCase() : c.toLowerCase())).join(""))]);
    out.push([`;params on segment ${i}`, with_(`${segs[i]};x=1`)]);
    out.push([`;jsessionid on segment ${i}`, with_(`${segs[i]};jsessionid=ABC`)]);
  }
  out.push(["whole path upper case", path.toUpperCase()]);
  out.push(["one segment more", `${path}/extra`]);
  out.push(["a long extra segment", `${path}/${"a".repeat(2000)}`]);
  out.push(["many extra segments", `${path}${"/x".repeat(300)}`]);
  return out;
}

test.describe("path variants of every priced route", () => {
  let upstream: http.Server;
  let hits: string[] = [];
  let sellerId = "";

  test.beforeAll(async () => {
    upstream = http.createServer((req, res) => {
      hits.push(`${req.method} ${req.url}`);
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ source: "counted", as_of: null }));
    });
    await new Promise<void>((r) => upstream.listen(0, "127.0.0.1", r));
    const url = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
    sellerId = (await query<{ id: string }>("select seller_id as id from seller_hosts where hostname = $1", [HOST]))[0]!.id;
    await query("update services set upstream_url = $2 where seller_id = $1 and upstream_url <> ''", [sellerId, url]);
    // The catalog is cached per version: a bump makes every instance read the new upstream.
    await query("update sellers set catalog_version = catalog_version + 1 where id = $1", [sellerId]);
  });
  test.afterAll(async () => {
    await query("update services set upstream_url = 'http://127.0.0.1:9' where seller_id = $1 and upstream_url <> ''", [sellerId]);
    await query("update sellers set catalog_version = catalog_version + 1 where id = $1", [sellerId]);
    await new Promise<void>((r) => upstream.close(() => r()));
  });

  test("answer 402, 400 or 404 (or Next.js's 308 to one of those), never a 2xx, and never reach the upstream", async () => {
    test.setTimeout(300_000);
    const routes = await pricedRoutes();
    // Every priced operation of the seeded catalog, found through discovery.
    expect(routes.map((r) => r.key).sort()).toEqual([
      "aggregates",
      "archive_catalog",
      "archive_day",
      "archive_range",
      "avg_interest_rates",
      "backtest",
      "basis",
      "congress_trades",
      "crypto_bars",
      "economy_series",
      "energy_prices",
      "forex_rates",
      "options_chain",
      "perp_funding",
      "perps",
      "screener",
      "sec_filings",
      "sec_key_facts",
      "sector_breadth",
      "value_score",
      "vix",
      "world_bank_indicators",
    ]);
    hits = [];
    const unexpected: string[] = [];
    const seen = new Map<number, number>();
    let checked = 0;
    // A data operation sold at $0 (the economic series listing) is served unpaid: a variant Next.js cleans into its path
    // (`/api/v1/economy/series/DGS10/..` -> `/api/v1/economy/series`) is that free call, not a way around a price.
    const free = new Set(await freeRoutes());
    for (const route of routes) {
      const clean = await rawGet(route.path);
      // A live-only operation on this offline stack refuses every call before any payment (403 live_only): for it, that
      // refusal is the answer its variants may give instead of a 402.
      const liveOnly = clean.status === 403 && /"reason"\s*:\s*"live_only"/.test(clean.body);
      if (!liveOnly) expect(clean.status, `${route.path} itself`).toBe(402);
      for (const [name, target] of variants(route.path)) {
        const hitsBefore = hits.length;
        const r = await rawGet(target);
        let final = r;
        if (r.status === 308) {
          const location = new URL(r.headers.location ?? "", `http://${HOST}`);
          // Next.js's cleaned URL stays on this storefront; its answer is held to the same rule.
          if (location.host !== HOST) unexpected.push(`${route.key} ${name}: 308 to another host ${r.headers.location}`);
          final = await rawGet(location.pathname + location.search);
          if (free.has(location.pathname) && final.status === 200 && /status=free/.test(String(final.headers["svc-billing"]))) {
            hits.length = hitsBefore;
            seen.set(308, (seen.get(308) ?? 0) + 1);
            checked++;
            continue;
          }
        }
        seen.set(r.status, (seen.get(r.status) ?? 0) + 1);
        checked++;
        const ok = (s: number) => s === 402 || s === 400 || s === 404 || (liveOnly && s === 403);
        if (!(ok(r.status) || (r.status === 308 && ok(final.status))))
          unexpected.push(`${route.key} ${name} (${target.slice(0, 120)}): ${r.status}${r !== final ? ` -> ${final.status}` : ""} ${final.body.slice(0, 160)}`);
        // A refusal is the JSON error of SERVICE.md part 7, whatever the path looked like.
        if (final.status !== 402 && ok(final.status) && !/"error"\s*:/.test(final.body))
          unexpected.push(`${route.key} ${name}: ${final.status} without a JSON error`);
      }
    }
    test.info().annotations.push({ type: "statuses", description: `${checked} variants: ${JSON.stringify(Object.fromEntries(seen))}` });
    expect(unexpected, `variants answered otherwise (${checked} checked; statuses ${JSON.stringify([...seen])})`).toEqual([]);
    expect(hits, "calls that reached the upstream").toEqual([]);
    // Nothing was charged or delivered at this storefront.
    expect(await query("select id, status from payments where seller_id = $1 and status not in ('challenged')", [sellerId])).toEqual([]);
  });

  test("positive control: a paid call does reach the counted upstream", async () => {
    const fetchOnHost = (async (input: string | URL | Request, init?: RequestInit) => {
      const req = new Request(input, init);
      const url = new URL(req.url);
      const headers = Object.fromEntries(req.headers);
      return new Promise<Response>((resolve, reject) => {
        const out = http.request(
          { host: "127.0.0.1", port, path: url.pathname + url.search, method: req.method, headers: { ...headers, host: HOST } },
          (res) => {
            const chunks: Buffer[] = [];
            res.on("data", (c: Buffer) => chunks.push(c));
            res.on("end", () =>
              resolve(
                new Response(Buffer.concat(chunks), {
                  status: res.statusCode,
                  headers: Object.entries(res.headers).flatMap(([k, v]) => (v === undefined ? [] : [[k, String(v)] as [string, string]])),
                }),
              ),
            );
          },
        );
        out.on("error", reject);
        out.end();
      });
    }) as typeof fetch;
    const client = new x402Client();
    // anvil's default account 8 (a public test key the e2e stack funds with USDC).
    registerExactEvmScheme(client, { signer: mnemonicToAccount("test test test test test test test test test test test junk", { addressIndex: 8 }) });
    hits = [];
    const res = await wrapFetchWithPayment(fetchOnHost, client)(`http://${HOST}/api/v1/avg-interest-rates`);
    expect(res.status).toBe(200);
    expect(hits).toEqual(["GET /avg-interest-rates"]);
  });
});
