// The hostile buyer's probe of issue 33, repeated against the built app over HTTP: each attack that used to work, tried
// again, and what bounds it now. One payment buys one answer (retries and 200 copies in flight run the upstream once;
// the backtest PNG is made once); bodies stop at their limit on the wire and slow ones time out; a Host that is not a
// host is 400 and a client's forwarded headers are not trusted; long targets are 414 before a challenge; NUL bytes are
// 4xx with no database text; and on a second production instance: no test card where no processor was chosen, webhooks
// refused at private addresses, sign-in locked against guessing, and sign-out ending the session on the server.
import net from "node:net";
import { expect, test } from "@playwright/test";
import { x402Client, x402HTTPClient } from "@x402/core/client";
import { registerExactEvmScheme } from "@x402/evm/exact/client";
import { mnemonicToAccount } from "viem/accounts";
import { query, startAppInstance } from "../stack";

const port = Number(process.env.E2E_PORT ?? 3100);
const BASE = `http://127.0.0.1:${port}`;
const METRICS = { authorization: "Bearer e2e-metrics-token-0123456789" };
const COUNTED = { email: "owner@counted.test", password: "counted-seller-password" };

/** The x402 proof headers the official client makes for this 402, signed by anvil account `index`. */
async function pay(res: Response, index: number): Promise<Record<string, string>> {
  const client = new x402HTTPClient(
    (() => {
      const c = new x402Client();
      registerExactEvmScheme(c, { signer: mnemonicToAccount("test test test test test test test test test test test junk", { addressIndex: index }) });
      return c;
    })(),
  );
  const required = client.getPaymentRequiredResponse((name) => res.headers.get(name), await res.json());
  return client.encodePaymentSignatureHeader(await client.createPaymentPayload(required));
}

const artifacts = async () => Number((await query<{ n: string }>("select count(*)::text as n from market_artifacts"))[0]!.n);

/** A chunked body's data (RFC 9112 section 7.1: hex size, CRLF, data, CRLF; a zero size ends it). */
function unchunk(raw: string): string {
  let out = "";
  for (let at = 0; ;) {
    const eol = raw.indexOf("\r\n", at);
    const size = parseInt(raw.slice(at, eol), 16);
    if (!(size > 0)) return out;
    out += raw.slice(eol + 2, eol + 2 + size);
    at = eol + 2 + size + 2;
  }
}

/** One request written on a socket as given (a Host no client library would send). */
function raw(request: string): Promise<{ status: number; head: string; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1");
    const chunks: Buffer[] = [];
    socket.setTimeout(60_000, () => socket.destroy(new Error("timeout")));
    socket.on("connect", () => socket.write(request, "latin1"));
    socket.on("data", (c: Buffer) => chunks.push(c));
    socket.on("error", reject);
    socket.on("close", () => {
      const all = Buffer.concat(chunks).toString("latin1");
      const split = all.indexOf("\r\n\r\n");
      const head = all.slice(0, split);
      resolve({
        status: Number(all.split(" ")[1]),
        head,
        body: /^transfer-encoding:\s*chunked/im.test(head) ? unchunk(all.slice(split + 4)) : all.slice(split + 4),
      });
    });
  });
}

/**
 * POST `mib` MiB to `path` as a chunked body (no Content-Length), written as fast as the socket takes it until the
 * server answers: its status and body, and how much had been written by then.
 */
function chunkedFlood(path: string, type: string, mib: number): Promise<{ status: number; body: string; sentMiB: number }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1");
    const frame = Buffer.concat([Buffer.from(`${(1024 * 1024).toString(16)}\r\n`), Buffer.alloc(1024 * 1024, 97), Buffer.from("\r\n")]);
    const chunks: Buffer[] = [];
    let sent = 0;
    let answered = false;
    let sentAtAnswer = 0;
    const finish = () => {
      const all = Buffer.concat(chunks).toString("latin1");
      const split = all.indexOf("\r\n\r\n");
      const head = all.slice(0, split);
      const body = /^transfer-encoding:\s*chunked/im.test(head) ? unchunk(all.slice(split + 4)) : all.slice(split + 4);
      resolve({ status: Number(all.split(" ")[1]), body, sentMiB: sentAtAnswer });
    };
    socket.setTimeout(60_000, () => socket.destroy(new Error("no answer within 60 s")));
    socket.on("data", (c: Buffer) => {
      if (!answered) sentAtAnswer = sent;
      answered = true;
      chunks.push(c);
      // The whole answer is in once its JSON closes; the server may keep the connection open.
      if (/\}\s*(0\r\n\r\n)?$/.test(Buffer.concat(chunks).toString("latin1"))) socket.destroy();
    });
    socket.on("close", finish);
    socket.on("error", (e) => (answered ? finish() : reject(e)));
    socket.on("connect", async () => {
      socket.write(
        `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\ncontent-type: ${type}\r\naccept: application/json, text/event-stream\r\ntransfer-encoding: chunked\r\n\r\n`,
      );
      while (!answered && !socket.destroyed && sent < mib) {
        sent++;
        if (!socket.write(frame)) await new Promise((r) => socket.once("drain", r));
      }
      if (!answered && !socket.destroyed) socket.write("0\r\n\r\n");
    });
  });
}

test.describe("one payment buys one answer", () => {
  test("a backtest proof retried 30 times gets the same bytes and receipt and makes one PNG, which stays available", async () => {
    const url = `${BASE}/api/v1/backtest/AAPL?years=1&fast=20&slow=60`;
    const before = await artifacts();
    const proof = await pay(await fetch(url), 4);
    const first = await fetch(url, { headers: proof });
    expect(first.status).toBe(200);
    const bytes = await first.text();
    const receipt = first.headers.get("svc-receipt");
    for (let i = 0; i < 30; i++) {
      const again = await fetch(url, { headers: proof });
      expect(again.status).toBe(200);
      expect(again.headers.get("svc-billing")).toContain("replay=true");
      expect(again.headers.get("svc-receipt")).toBe(receipt);
      expect(await again.text()).toBe(bytes);
    }
    expect(await artifacts()).toBe(before + 1);
    const png = await fetch(JSON.parse(bytes).artifact.url);
    expect(png.status).toBe(200);
    expect(png.headers.get("content-type")).toBe("image/png");
  });

  test("200 copies of one proof in flight: one charge, the upstream runs once (one PNG), every copy the same bytes", async () => {
    const url = `${BASE}/api/v1/backtest/AAPL?years=2&fast=10&slow=40`;
    const before = await artifacts();
    const proof = await pay(await fetch(url), 5);
    const answers = await Promise.all(Array.from({ length: 200 }, () => fetch(url, { headers: proof })));
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
    expect(new Set(await Promise.all(answers.map((a) => a.text()))).size).toBe(1);
    expect(answers.filter((a) => !a.headers.get("svc-billing")!.includes("replay=true"))).toHaveLength(1);
    expect(await artifacts()).toBe(before + 1);
    const id = answers[0]!.headers.get("svc-payment-id")!;
    expect((await query<{ n: string }>("select count(*)::text as n from ledger_entries where payment_id = $1", [id]))[0]!.n).toBe("1");
  });
});

test.describe("bodies, headers and targets", () => {
  test("a 200 MB chunked body is refused at its limit on every body route, and the server's memory does not follow it", async () => {
    test.setTimeout(180_000);
    const rss = async () => {
      const text = await (await fetch(`${BASE}/metrics`, { headers: METRICS })).text();
      return Number(/^process_resident_memory_bytes (\d+)/m.exec(text)?.[1] ?? NaN);
    };
    const before = await rss();
    const routes: [string, string][] = [
      ["/agent/identity", "application/json"],
      ["/oauth2/token", "application/x-www-form-urlencoded"],
      ["/webhooks/stripe", "application/json"],
      ["/api/auth/callback/seller", "application/x-www-form-urlencoded"],
      ["/api/trpc/settings.update", "application/json"],
      ["/mcp", "application/json"],
    ];
    const sentBy: string[] = [];
    for (const [path, type] of routes) {
      const r = await chunkedFlood(path, type, 200);
      expect(r.status, path).toBe(413);
      expect(JSON.parse(r.body).error, path).toBe("payload_too_large");
      // The answer came while the body was still being sent: the server stopped at its limit, not at the end.
      expect(r.sentMiB, `${path}: ${r.sentMiB} MiB sent before the answer`).toBeLessThan(50);
      sentBy.push(`${path} ${r.sentMiB} MiB`);
    }
    const grown = (await rss()) - before;
    test
      .info()
      .annotations.push({ type: "figures", description: `sent before the 413: ${sentBy.join(", ")}; resident memory grew ${Math.round(grown / 1048576)} MiB` });
    expect(grown).toBeLessThan(150 * 1024 * 1024);
  });

  test("a body trickled in is abandoned: 408 within the body deadline", async () => {
    const t0 = Date.now();
    const socket = net.connect(port, "127.0.0.1");
    const status = await new Promise<number>((resolve) => {
      let timer: NodeJS.Timeout | undefined;
      socket.on("connect", () => {
        socket.write("POST /agent/identity HTTP/1.1\r\nHost: 127.0.0.1\r\ncontent-type: application/json\r\ncontent-length: 1000\r\n\r\n{");
        timer = setInterval(() => socket.write(" "), 1000);
      });
      socket.on("data", (d: Buffer) => {
        clearInterval(timer);
        resolve(Number(d.toString("latin1").split(" ")[1]));
        socket.destroy();
      });
    });
    expect(status).toBe(408);
    expect(Date.now() - t0).toBeLessThan(20_000);
  });

  test("a Host that is not a host is 400, never a 500 or a link to another host; a client's X-Forwarded-Host is ignored", async () => {
    for (const host of ["localhost:3000@evil.example", "localhost:99999", "a b", "[::1", "evil.example/x", "%00"]) {
      const r = await raw(`GET /api/v1/backtest/AAPL HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);
      expect(r.status, host).toBe(400);
      expect(JSON.parse(r.body)).toMatchObject({ error: "invalid_request", reason: "invalid_host" });
    }
    const res = await fetch(`${BASE}/api/v1/backtest/AAPL`, { headers: { "x-forwarded-host": "evil.example", "x-forwarded-proto": "https" } });
    expect(res.status).toBe(402);
    const body = await res.json();
    expect(body.card.payUrl).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${port}/payments/`));
    expect(JSON.stringify(body)).not.toContain("evil.example");
  });

  test("a long request target is 414 before any challenge; a 402's headers stay small", async () => {
    const long = await fetch(`${BASE}/api/v1/aggregates/AAPL?from=2024-01-02&x=${"a".repeat(1100)}`);
    expect(long.status).toBe(414);
    expect((await long.json()).error).toBe("uri_too_long");
    expect(long.headers.get("payment-required")).toBeNull();
    // At the bound (896 bytes of path and query) a 402, its headers inside what Node clients read (16 KiB); one byte
    // more, a 414.
    const at = (n: number) => `${BASE}/api/v1/backtest/AAPL?years=1&x=${"a".repeat(n - "/api/v1/backtest/AAPL?years=1&x=".length)}`;
    expect((await fetch(at(897))).status).toBe(414);
    const longest = await fetch(at(896));
    expect(longest.status).toBe(402);
    let size = 0;
    longest.headers.forEach((v, k) => (size += k.length + v.length + 4));
    test.info().annotations.push({ type: "figures", description: `a 402 for an 896-byte target: ${size} bytes of headers` });
    expect(size).toBeLessThan(15 * 1024);
  });

  test("NUL bytes are a 4xx wherever they go, never a 500 or the database's words", async () => {
    for (const path of ["/payments/pay_%00/receipt", "/payments/pay_%00", "/api/v1/aggregates/AA%00PL", "/checkout/pay_%00"]) {
      const r = await fetch(`${BASE}${path}`);
      expect(r.status, path).toBeGreaterThanOrEqual(400);
      expect(r.status, path).toBeLessThan(500);
      expect(await r.text(), path).not.toMatch(/invalid byte sequence|PostgreSQL|prisma|22021/i);
    }
    // The hosted checkout of an id no payment can have is the page's 404, as an unknown id's is; the claim page says the
    // link is not valid, as it does for any unknown link.
    expect((await fetch(`${BASE}/checkout/pay_%00x`)).status).toBe(404);
    const claim = await fetch(`${BASE}/claim/%00`);
    expect(claim.status).toBeLessThan(500);
    expect(await claim.text()).toContain("This claim link is not valid.");
    // A token whose issuer holds a NUL (any agent can present one).
    const enc = (o: object) => Buffer.from(JSON.stringify(o)).toString("base64url");
    const assertion = `${enc({ alg: "ES256", typ: "oauth-id-jag+jwt" })}.${enc({ iss: "https://idp.example\u0000x", sub: "x", aud: BASE })}.AAAA`;
    const reg = await fetch(`${BASE}/agent/identity`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ type: "identity_assertion", assertion_type: "urn:ietf:params:oauth:token-type:id-jag", assertion }),
    });
    expect(reg.status).toBeGreaterThanOrEqual(400);
    expect(reg.status).toBeLessThan(500);
    expect(await reg.text()).not.toMatch(/invalid byte sequence|PostgreSQL|prisma/i);
  });
});

/** next-auth's credential sign-in over HTTP: the cookies of the session it made, or the error it answered. */
async function signIn(base: string, who: { email: string; password: string }, headers: Record<string, string> = {}) {
  const csrf = await fetch(`${base}/api/auth/csrf`, { headers });
  const csrfCookie = csrf.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  const { csrfToken } = await csrf.json();
  const res = await fetch(`${base}/api/auth/callback/seller`, {
    method: "POST",
    redirect: "manual",
    headers: { ...headers, "content-type": "application/x-www-form-urlencoded", cookie: csrfCookie },
    body: new URLSearchParams({ csrfToken, email: who.email, password: who.password, json: "true" }),
  });
  const session = res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0]!)
    .find((c) => c.includes("session-token"));
  const { url } = await res.json();
  return { cookie: session ? `${session}; ${csrfCookie}` : null, error: new URL(url).searchParams.get("error"), csrfToken };
}

const settings = (base: string, cookie: string) => fetch(`${base}/api/trpc/settings.get`, { headers: { cookie } });

const trpcPost = (base: string, cookie: string, path: string, input: unknown) =>
  fetch(`${base}/api/trpc/${path}`, { method: "POST", headers: { cookie, "content-type": "application/json" }, body: JSON.stringify({ json: input }) });

test.describe("a second production instance, with no card processor chosen and no private webhooks allowed", () => {
  let app: { url: string; stop: () => void };
  const clearFailures = () =>
    query("delete from sign_in_failures where key like $1 or key like $2 or key like $3", [`%${COUNTED.email}%`, "%198.51.100.%", "%203.0.113.9%"]);
  test.beforeAll(async () => {
    await clearFailures();
    // Trusting one proxy: each attack below comes "from" an address of its own (X-Forwarded-For), so the lockouts it
    // causes touch no other spec. Neither STRIPE_SECRET_KEY nor CARD_TEST_PROCESSOR; WEBHOOK_ALLOW_PRIVATE_URLS unset.
    app = await startAppInstance(port + 31, { TRUSTED_PROXY_HOPS: "1", CARD_TEST_PROCESSOR: "off" });
  });
  test.afterAll(async () => {
    app?.stop();
    await clearFailures();
  });

  test("no processor chosen: a 402 offers no card, the manifest says so, and the payUrl opens no checkout", async () => {
    const res = await fetch(`${app.url}/api/v1/backtest/AAPL?years=2`);
    expect(res.status).toBe(402);
    const body = await res.json();
    expect(body.card).toBeUndefined();
    expect(res.headers.get("www-authenticate") ?? "").not.toMatch(/method="stripe"/);
    expect((await (await fetch(`${app.url}/manifest.json`)).json()).payment.card).toMatchObject({ offered: false });
    const pay = await fetch(`${app.url}/payments/${body.payment.id}/pay`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ checkout: true }),
    });
    expect(pay.status).toBe(501);
    expect((await pay.json()).error).toBe("card_payments_unavailable");
  });

  test("a webhook URL at a private, loopback, link-local or IPv4-embedded IPv6 address is refused; a public IPv6 literal is taken", async () => {
    const s = await signIn(app.url, COUNTED, { "x-forwarded-for": "203.0.113.7" });
    expect(s.cookie).toBeTruthy();
    for (const url of [
      "https://127.0.0.1/hook",
      "https://10.1.2.3/hook",
      "https://169.254.169.254/latest/meta-data",
      "https://[::1]/hook",
      "https://[::ffff:7f00:1]/hook",
      "https://[::7f00:1]/hook",
      "https://[::ffff:0:7f00:1]/hook",
      "https://[fd00::1]/hook",
      "https://localhost/hook",
      "http://example.com/hook",
    ]) {
      const res = await trpcPost(app.url, s.cookie!, "webhooks.createEndpoint", { url });
      expect(res.status, url).toBe(400);
      expect((await res.json()).error.json.data.appError, url).toMatchObject({ error: "invalid_request", reason: "invalid_webhook_url" });
    }
    // The positive control: the check refuses addresses, not every URL.
    const ok = await trpcPost(app.url, s.cookie!, "webhooks.createEndpoint", { url: "https://[2606:4700:4700::1111]/hook" });
    expect(ok.status).toBe(200);
    const { id } = (await ok.json()).result.data.json.endpoint;
    expect((await trpcPost(app.url, s.cookie!, "webhooks.deleteEndpoint", { id })).status).toBe(200);
  });

  test("a NUL in the console's search is a 400 in our words, never the database's", async () => {
    const s = await signIn(app.url, COUNTED, { "x-forwarded-for": "203.0.113.7" });
    expect(s.cookie).toBeTruthy();
    const input = encodeURIComponent(JSON.stringify({ json: { q: "pay_\u0000x" } }));
    const res = await fetch(`${app.url}/api/trpc/search.global?input=${input}`, { headers: { cookie: s.cookie! } });
    expect(res.status).toBe(400);
    const text = await res.text();
    expect(text).not.toMatch(/invalid byte sequence|PostgreSQL|prisma|22021|0x00/i);
    expect(JSON.parse(text).error.json.data.appError).toMatchObject({ reason: "invalid_characters" });
  });

  test("59 wrong passwords then the right one: locked out with backoff, the right password refused while locked", async () => {
    test.setTimeout(120_000);
    await clearFailures();
    const from = { "x-forwarded-for": `198.51.100.${1 + Math.floor(Math.random() * 250)}` };
    const errors: (string | null)[] = [];
    for (let i = 0; i < 59; i++) errors.push((await signIn(app.url, { ...COUNTED, password: `guess-${i}` }, from)).error);
    expect(errors.slice(0, 5).every((e) => e === "CredentialsSignin")).toBe(true);
    expect(errors.filter((e) => e?.startsWith("locked:")).length).toBeGreaterThan(40);
    const right = await signIn(app.url, COUNTED, from);
    expect(right.cookie).toBeNull();
    expect(right.error).toMatch(/^locked:\d+$/);
    // Another address is locked out of this account too (per account): the guesser cannot spread over addresses.
    const elsewhere = await signIn(app.url, COUNTED, { "x-forwarded-for": "203.0.113.9" });
    expect(elsewhere.cookie).toBeNull();
    expect(elsewhere.error).toMatch(/^locked:\d+$/);
  });

  test("sign-out ends the session on the server: a copy of its cookie is refused afterwards", async () => {
    await clearFailures();
    const s = await signIn(BASE, COUNTED);
    expect(s.cookie).toBeTruthy();
    expect((await settings(BASE, s.cookie!)).status).toBe(200);
    const out = await fetch(`${BASE}/api/auth/signout`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie: s.cookie! },
      body: new URLSearchParams({ csrfToken: s.csrfToken, json: "true" }),
    });
    expect(out.status).toBeLessThan(400);
    // The stolen copy: the same cookie, sent again after sign-out.
    expect((await settings(BASE, s.cookie!)).status).toBe(401);
    // A new sign-in works.
    const again = await signIn(BASE, COUNTED);
    expect((await settings(BASE, again.cookie!)).status).toBe(200);
  });
});
